// The merged run as one load report (the same JSON, Markdown and JUnit files as any load run): k6's
// summary figures recomputed from the union of the runners' samples, the thresholds as the merge
// judged them, one verdict per runner's share (so CI names the one that is missing), and the
// verdict "incomplete" when a share is. Pure: the caller writes the files.
import type { K6Check, K6Metric, K6SummaryData } from '../../../load/lib/summary/k6-data.ts';
import { buildReport, type Figure, type LoadReport, type Verdict } from '../../../load/lib/summary/report.ts';
import { type Declared, type MergeResult, percentile, type Sample, valuesOf } from './samples.ts';
import { mergedLatency, mergedTimeline } from './timeline.ts';

const TREND_STATS = ['min', 'avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'] as const;

function trendValues(values: number[]): Record<string, number> {
  const sorted = [...values].sort((a, b) => a - b);
  const out: Record<string, number> = { count: sorted.length };
  for (const stat of TREND_STATS) {
    if (stat === 'min') out.min = sorted[0] as number;
    else if (stat === 'max') out.max = sorted[sorted.length - 1] as number;
    else if (stat === 'avg') out.avg = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    else if (stat === 'med') out.med = percentile(sorted, 50);
    else out[stat] = percentile(sorted, Number(stat.slice(2, -1)));
  }
  return out;
}

/** k6's summary values of one metric, from its merged samples. */
export function metricValues(
  kind: Declared['type'],
  values: number[],
  durationMs: number,
): Record<string, number> {
  const seconds = Math.max(durationMs, 1) / 1000;
  switch (kind) {
    case 'trend':
      return trendValues(values);
    case 'counter': {
      const count = values.reduce((a, b) => a + b, 0);
      return { count, rate: count / seconds };
    }
    case 'rate': {
      const passes = values.filter((v) => v !== 0).length;
      return { rate: passes / values.length, passes, fails: values.length - passes };
    }
    case 'gauge':
      return {
        value: values[values.length - 1] as number,
        min: Math.min(...values),
        max: Math.max(...values),
      };
  }
}

/** The union as k6's handleSummary data: base metrics, the thresholds' sub-metrics, the checks. */
export function mergedSummary(merged: MergeResult): K6SummaryData {
  const metrics: Record<string, K6Metric> = {};
  const add = (name: string, values: number[]) => {
    const base = name.split('{')[0] as string;
    const declared = merged.declared.get(base) ?? { type: 'trend' };
    if (values.length === 0) return;
    metrics[name] = {
      type: declared.type,
      ...(declared.contains ? { contains: declared.contains } : {}),
      values: metricValues(declared.type, values, merged.durationMs),
    };
  };
  for (const [name, samples] of merged.union)
    add(
      name,
      samples.map((s) => s.value),
    );
  for (const t of merged.thresholds) {
    if (!metrics[t.name]) add(t.name, valuesOf(merged.union, t.name));
    // A threshold on a metric no runner moved is still judged (a counter of none counts 0) and shown.
    metrics[t.name] ??= {
      type: merged.declared.get(t.name.split('{')[0] as string)?.type ?? 'counter',
      values: t.value === null ? {} : { count: t.value },
    };
    const metric = metrics[t.name];
    if (metric) metric.thresholds = { ...metric.thresholds, [t.expression]: { ok: t.ok } };
  }
  return {
    metrics,
    root_group: { name: '', path: '', checks: checksOf(merged.union.get('checks') ?? []), groups: [] },
    state: { testRunDurationMs: merged.durationMs },
  };
}

/** k6's `checks` rate, by its `check` tag: passes and fails per check over every runner. */
function checksOf(samples: Sample[]): K6Check[] {
  const byName = new Map<string, K6Check>();
  for (const s of samples) {
    const name = s.tags.check ?? '';
    // k6's group path of a check in the root group (not a request path).
    const groupPath = `::${name}`;
    const c = byName.get(name) ?? { name, path: groupPath, passes: 0, fails: 0 };
    if (s.value !== 0) c.passes += 1;
    else c.fails += 1;
    byName.set(name, c);
  }
  return [...byName.values()];
}

export interface MergedReportContext {
  script: string;
  target: LoadReport['target'];
  finishedAt: Date;
  /** Lines the launcher adds (credentials, the merge's own cost). */
  figures?: Figure[];
  notes?: string[];
}

/** The one report of a split run; its verdict is the merge's ("incomplete" names the missing share). */
export function mergedReport(merged: MergeResult, context: MergedReportContext): LoadReport {
  const shares: Verdict[] = merged.shares.map((s) => {
    const problems = merged.incomplete.filter((line) => line.startsWith(`${s.name} `));
    return {
      name: `${s.name}'s share (segment ${s.segment}) is whole`,
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `${s.requests} requests, ${s.samples} samples, k6 exit ${s.exitCode}`
          : problems.join('; '),
    };
  });
  // Problems not tied to a listed share (a directory with no runner.json) still fail the run.
  const orphans = merged.incomplete.filter(
    (line) => !merged.shares.some((s) => line.startsWith(`${s.name} `)),
  );
  for (const line of orphans) shares.push({ name: 'a runner share is readable', ok: false, detail: line });
  const timeline = mergedTimeline(merged.union.get('http_reqs') ?? []);
  const latency = mergedLatency(merged.union.get('http_req_duration') ?? []);
  const report = buildReport(mergedSummary(merged), {
    script: context.script,
    // The limiter and the latency over time, drawn on the conformance page from every runner's requests.
    ...(timeline || latency
      ? { analysis: { ...(timeline ? { timeline } : {}), ...(latency ? { latency } : {}) } }
      : {}),
    target: context.target,
    finishedAt: context.finishedAt,
    figures: [
      {
        label: 'runners',
        value: `${merged.shares.length}: ${merged.shares.map((s) => `${s.name} ${s.segment} (${s.requests} requests)`).join(', ')}`,
      },
      ...(context.figures ?? []),
    ],
    // A share that is not whole is not a failed rule of the target: the run is incomplete instead.
    verdicts: shares.map((v) => (v.ok ? v : { ...v, ok: null })),
    notes: [
      "Thresholds judged on the union of every runner's raw samples (k6 --out json): counts and rates summed, percentiles computed from all samples as k6 does.",
      ...(context.notes ?? []),
    ],
  });
  if (merged.verdict !== 'incomplete') return report;
  return {
    ...report,
    verdict: 'incomplete',
    verdictReason: `a runner's share is missing or damaged: ${merged.incomplete.join('; ')}`,
    passed: false,
  };
}
