// One load run as a report: k6's summary data plus what the script's analysis found. The renderers
// (JSON, Markdown, JUnit, text) only read this shape. Pure.

import type { VerdictKind } from '../../../common/verdict-kind.ts';
import { isUnreadSubMetric, unboundedNote, unreadNote, unreadTokenStop } from '../bounded-read.ts';
import { isSampleCheck, type Sample } from '../samples.ts';
import { allChecks, type K6SummaryData } from './k6-data.ts';

export interface Verdict {
  name: string;
  /** null: the run could not decide (reported as skipped, with the reason in detail). */
  ok: boolean | null;
  detail: string;
  /** The catalogue rule a failed verdict breaks, where the finding knows it. */
  rule?: string;
  /** The kind of a failed verdict, in the checks' vocabulary (common/verdict-kind.ts). */
  kind?: VerdictKind;
  /**
   * The catalogue rules the finding judges (RATE-01, FLG-02, ...), whatever its outcome; absent
   * when it judges no rule of the spec (what the target's own headers declare, RATE_EXPECTED_*).
   */
  rules?: string[];
  /**
   * Each rule's level and the spec's words, added on the Node side from src/rules/catalogue.ts
   * (the launcher: k6 cannot load the catalogue), so every output quotes what was judged.
   */
  ruleTexts?: RuleText[];
  /** A failed finding's evidence: the first answer it is about (status, headers, body cut). */
  sample?: Sample;
}

/** A rule as a load report quotes it. */
export interface RuleText {
  id: string;
  level: string;
  text: string;
  section: string;
}

export interface Figure {
  label: string;
  value: string;
}

export interface ThresholdResult {
  metric: string;
  expression: string;
  ok: boolean;
  /** What the run measured of the expression's statistic, in the metric's unit ("0.42 %", "812.0 ms"). */
  measured?: string;
  /** A crossed threshold's evidence: one exchange it counted (an error a user saw, a slow answer). */
  sample?: Sample;
}

/** The statistic a threshold expression judges: `p(95)<500` -> p(95), `rate<0.01` -> rate. */
export function statOf(expression: string): string | undefined {
  return /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(?:<=|>=|==|!=|<|>)/.exec(expression)?.[1];
}

/** The measured value next to a threshold's limit, when the metric has the statistic it judges. */
export function measuredOf(
  metric: { type: string; contains?: string; values: Record<string, number> },
  expression: string,
): string | undefined {
  const stat = statOf(expression);
  const value = stat === undefined ? undefined : metric.values[stat];
  return stat === undefined || value === undefined ? undefined : formatValue(metric, stat, value);
}

/**
 * passed: every threshold and verdict held and the rule was put to the test. failed: one did not.
 * inconclusive: nothing failed, but the run could not put its rule to the test (exit 3 from the
 * npm scripts). interrupted: stopped by a signal before the end (exit 130/143), whatever was seen.
 * incomplete: a run split over several k6 runners lacks a runner's whole share (exit 3): never passed.
 * did not run: the launcher or k6 refused before any request (the reason says why); written by the
 * launcher so that the last run's verdict is never shown as this one's.
 */
export type RunVerdict = 'passed' | 'failed' | 'inconclusive' | 'interrupted' | 'incomplete' | 'did not run';

export interface LoadReport {
  tool: string;
  script: string;
  target: { name: string; apiBaseUrl: string };
  finishedAt: string;
  durationMs: number;
  verdict: RunVerdict;
  /** Why the verdict is inconclusive or interrupted. */
  verdictReason?: string;
  /** verdict === 'passed'. */
  passed: boolean;
  thresholds: ThresholdResult[];
  checks: { name: string; passes: number; fails: number }[];
  metrics: Record<string, { type: string; contains?: string; values: Record<string, number> }>;
  figures: Figure[];
  verdicts: Verdict[];
  notes: string[];
  /** The script's own analysis, machine-readable (JSON report only). */
  analysis?: Record<string, unknown>;
  /**
   * Added by the launcher once k6 has ended: k6's web-dashboard export beside this report (its file
   * name in the same folder), or why there is none.
   */
  dashboard?: { file: string } | { missing: string };
  /** Added by the launcher: the conformance run of the same folder against the same target. */
  conformance?: ConformanceBeside;
  /** Added by the launcher: the command that runs the same probe again (its arguments, secrets hidden). */
  rerun?: string;
}

/** The conformance run a load run sits beside (reports/index.html of the same folder). */
export interface ConformanceBeside {
  startedAt: string;
  exitCode: number;
  /** Its headline, as index.html says it. */
  verdict: string;
  /** Its page, relative to the reports folder. */
  file: string;
}

export interface ReportContext {
  script: string;
  target: { name: string; apiBaseUrl: string };
  finishedAt: Date;
  figures?: Figure[];
  verdicts?: Verdict[];
  notes?: string[];
  analysis?: Record<string, unknown>;
  /** Set when the run could not put its rule to the test: why. */
  inconclusive?: string;
  /** Evidence for the thresholds by metric name, shown when that threshold is crossed. */
  thresholdSamples?: ReadonlyMap<string, Sample>;
}

/**
 * Counters named *_inconclusive (count==0) or *_conclusive (count>0) carry a threshold only so that
 * k6 itself exits non-zero (99) when a probe proved nothing; their crossing makes the run
 * inconclusive, not failed.
 */
export function isConclusivenessMetric(metricName: string): boolean {
  return /_(in)?conclusive$/.test(metricName);
}

/**
 * Sub-metrics tagged by second exist only so the analysis can read per-second counts; they are
 * plumbing, not findings, and would bury the report.
 */
export function isPlumbing(metricName: string): boolean {
  return /\{sec:\d+\}$/.test(metricName) || isUnreadSubMetric(metricName);
}

export function buildReport(data: K6SummaryData, context: ReportContext): LoadReport {
  const thresholds: ThresholdResult[] = [];
  const metrics: LoadReport['metrics'] = {};
  for (const name of Object.keys(data.metrics).sort()) {
    if (isPlumbing(name)) continue;
    const metric = data.metrics[name];
    if (!metric) continue;
    metrics[name] = {
      type: metric.type,
      ...(metric.contains ? { contains: metric.contains } : {}),
      values: metric.values,
    };
    for (const [expression, result] of Object.entries(metric.thresholds ?? {})) {
      const measured = measuredOf(metric, expression);
      const sample = result.ok ? undefined : context.thresholdSamples?.get(name);
      thresholds.push({
        metric: name,
        expression,
        ok: result.ok,
        ...(measured ? { measured } : {}),
        ...(sample ? { sample } : {}),
      });
    }
  }
  const plumbingFailed = Object.entries(data.metrics).some(
    ([name, m]) => isPlumbing(name) && Object.values(m.thresholds ?? {}).some((t) => !t.ok),
  );
  const failed =
    plumbingFailed ||
    thresholds.some((t) => !t.ok && !isConclusivenessMetric(t.metric)) ||
    (context.verdicts ?? []).some((v) => v.ok === false);
  // A run whose token answers could not be read never ran: it proved nothing (not "passed").
  const inconclusive = unreadTokenStop(data.metrics) ?? context.inconclusive;
  const verdict: RunVerdict = failed ? 'failed' : inconclusive ? 'inconclusive' : 'passed';
  return {
    tool: 'payments-crm-conformance k6 harness',
    script: context.script,
    target: context.target,
    finishedAt: context.finishedAt.toISOString(),
    durationMs: Math.round(data.state?.testRunDurationMs ?? 0),
    verdict,
    ...(verdict === 'inconclusive' ? { verdictReason: inconclusive } : {}),
    passed: verdict === 'passed',
    thresholds,
    // The checks that carry samples are plumbing (load/lib/samples.ts), not checks of the target.
    checks: allChecks(data.root_group)
      .filter((c) => !isSampleCheck(c.name))
      .map((c) => ({ name: c.name, passes: c.passes, fails: c.fails })),
    metrics,
    figures: context.figures ?? [],
    verdicts: context.verdicts ?? [],
    // Every script says which needed bodies it did not read, and what was therefore not judged.
    notes: [
      ...(context.notes ?? []),
      ...[unreadNote(data.metrics), unboundedNote(data.metrics)].filter((n) => n !== undefined),
    ],
    ...(context.analysis ? { analysis: context.analysis } : {}),
  };
}

/** A metric value for people: milliseconds for time, percentages for rates. */
export function formatValue(
  metric: { type: string; contains?: string },
  stat: string,
  value: number,
): string {
  if (metric.type === 'rate' && stat === 'rate') return `${(value * 100).toFixed(2)} %`;
  if (metric.contains === 'time' && stat !== 'count') return `${value.toFixed(1)} ms`;
  if (metric.contains === 'data')
    return stat === 'rate' ? `${Math.round(value)} B/s` : `${Math.round(value)} B`;
  if (stat === 'rate') return `${value.toFixed(2)}/s`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** "RATE-01 (ADVICE): A caller over the limit is answered 429 ..." for each rule a verdict judges. */
export function rulesOfVerdict(v: Pick<Verdict, 'rules' | 'rule' | 'ruleTexts'>): string[] {
  const ids = v.rules ?? (v.rule ? [v.rule] : []);
  return ids.map((id) => {
    const t = v.ruleTexts?.find((r) => r.id === id);
    return t ? `${id} (${t.level}): ${t.text}` : id;
  });
}

/** What a verdict judges when it judges no rule of the spec. */
export const NO_SPEC_RULE = 'no rule of the spec (a check of the target against its own word or yours)';
