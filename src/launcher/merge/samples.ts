// One verdict over many k6 runners: thresholds are judged on the union of the runners' raw samples
// (k6's `--out json=FILE` lines), because percentiles cannot be merged from per-runner summaries.
// Pure: no files, no processes, so the merge rules are proved on synthetic samples.

/** One runner's share: its k6 JSON output text, its segment and how its process ended. */
export interface RunnerOutput {
  name: string;
  /** The execution segment it ran, e.g. "1/4:1/2". */
  segment: string;
  /** The k6 process's exit code; null when it never ended (killed, or still unknown). */
  exitCode: number | null;
  /** The raw `--out json` text. */
  text: string;
}

/** What one runner's share held: the report names the runner whose share is missing or thin. */
export interface ShareStats {
  name: string;
  segment: string;
  exitCode: number | null;
  samples: number;
  /** Requests it made (its http_reqs samples). */
  requests: number;
  /** When its first request was made (ms since the epoch); null when it made none. */
  firstRequestAt: number | null;
}

/** A metric as k6 declared it in its JSON output. */
export interface Declared {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains?: string;
}

export interface ThresholdResult {
  /** `metric{tag:value}` as the release profile names it. */
  name: string;
  expression: string;
  /** The merged value the expression was judged on; null when no sample matched. */
  value: number | null;
  ok: boolean;
}

export type MergedVerdict = 'passed' | 'failed' | 'incomplete';

export interface MergeResult {
  verdict: MergedVerdict;
  /** Why the verdict is incomplete: one line per missing or damaged share, naming the runner. */
  incomplete: string[];
  thresholds: ThresholdResult[];
  /** Samples read per runner. */
  samples: Record<string, number>;
  shares: ShareStats[];
  /** Every metric's samples over all shares (their tags kept), for the merged report. */
  union: Map<string, Sample[]>;
  declared: Map<string, Declared>;
  /** From the first to the last sample of any share (ms). */
  durationMs: number;
}

export interface Sample {
  value: number;
  tags: Record<string, string>;
  /** ms since the epoch; NaN when the line had no time. */
  time: number;
}

/**
 * A share whose first request came this much later than the first share's did not run the same
 * load at the same time: its segment of the ramp was missed. Runners are resumed together (k6's
 * REST API), so on one machine they start within a second even when it is busy; 10 s is a hang.
 */
export const LATE_START_MS = 10_000;

// k6 exits 99 when thresholds fail: the share is whole, only its own verdict failed, and the merged
// verdict is judged afresh on the union.
const THRESHOLDS_FAILED_EXIT = 99;

/** Parses one runner's output; `truncated` when its last line is cut (a runner killed mid-write). */
export function parseK6Json(text: string): {
  points: Map<string, Sample[]>;
  truncated: boolean;
  declared: Map<string, Declared>;
} {
  const points = new Map<string, Sample[]>();
  const declared = new Map<string, Declared>();
  let truncated = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      truncated = true;
      continue;
    }
    const e = entry as {
      type?: string;
      metric?: string;
      data?: { value?: unknown; tags?: unknown; time?: unknown; type?: unknown; contains?: unknown };
    };
    if (e.type === 'Metric' && typeof e.metric === 'string' && typeof e.data?.type === 'string') {
      const contains = typeof e.data.contains === 'string' ? e.data.contains : undefined;
      declared.set(e.metric, {
        type: e.data.type as Declared['type'],
        ...(contains && contains !== 'default' ? { contains } : {}),
      });
      continue;
    }
    if (e.type !== 'Point' || typeof e.metric !== 'string' || typeof e.data?.value !== 'number') continue;
    const tags = (e.data.tags ?? {}) as Record<string, string>;
    let list = points.get(e.metric);
    if (!list) {
      list = [];
      points.set(e.metric, list);
    }
    list.push({
      value: e.data.value,
      tags,
      time: typeof e.data.time === 'string' ? Date.parse(e.data.time) : Number.NaN,
    });
  }
  // A whole output ends with a newline; a runner killed mid-line leaves none.
  if (text.length > 0 && !text.endsWith('\n')) truncated = true;
  return { points, truncated, declared };
}

/** `http_req_duration{endpoint:customers}` -> metric and tag filter. */
export function parseThresholdName(name: string): { metric: string; tags: Record<string, string> } {
  const m = /^([^{]+)(?:\{(.*)\})?$/.exec(name);
  if (!m) throw new Error(`unreadable threshold name ${name}`);
  const tags: Record<string, string> = {};
  for (const pair of (m[2] ?? '').split(',').filter((p) => p !== '')) {
    const at = pair.indexOf(':');
    tags[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return { metric: m[1] as string, tags };
}

/** k6's percentile: linear interpolation between the closest ranks of the sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (rank - lo);
}

function aggregate(agg: string, values: number[], kind?: Declared['type']): number {
  const pm = /^p\((\d+(?:\.\d+)?)\)$/.exec(agg);
  if (pm)
    return percentile(
      [...values].sort((a, b) => a - b),
      Number(pm[1]),
    );
  switch (agg) {
    case 'count':
      // A counter's count is the sum of what was added (counter.add(5) counts 5); a trend's, its samples.
      return kind === 'counter' ? values.reduce((a, b) => a + b, 0) : values.length;
    case 'rate':
      return values.filter((v) => v !== 0).length / values.length;
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'med':
      return percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    default:
      throw new Error(`unsupported threshold aggregation ${agg}`);
  }
}

function compare(value: number, op: string, limit: number): boolean {
  switch (op) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
    case '==':
    case '===':
      return value === limit;
    case '!=':
      return value !== limit;
    default:
      throw new Error(`unsupported threshold operator ${op}`);
  }
}

/** Judges `p(95)<800` on values; a threshold with no sample cannot pass (it proved nothing). */
export function judge(
  expression: string,
  values: number[],
  kind?: Declared['type'],
): { value: number | null; ok: boolean } {
  const m = /^\s*(\w+(?:\([\d.]+\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?[\d.]+)\s*$/.exec(expression);
  if (!m) throw new Error(`unreadable threshold ${expression}`);
  // A counter that never moved counts 0, as k6 says (count==0 thresholds hold); any other
  // aggregate of no sample proved nothing, so it cannot pass.
  if (values.length === 0) {
    if (m[1] !== 'count') return { value: null, ok: false };
    return { value: 0, ok: compare(0, m[2] as string, Number(m[3])) };
  }
  const value = aggregate(m[1] as string, values, kind);
  return { value, ok: compare(value, m[2] as string, Number(m[3])) };
}

/**
 * Merges the runners' shares and judges every threshold on the union. Any share that is missing,
 * cut or from a process that did not end cleanly makes the verdict "incomplete", never "passed".
 */
export function mergeRunners(
  runners: RunnerOutput[],
  thresholds: Record<string, string[]>,
  options: { lateStartMs?: number } = {},
): MergeResult {
  const union = new Map<string, Sample[]>();
  const declared = new Map<string, Declared>();
  const incomplete: string[] = [];
  const samples: Record<string, number> = {};
  const shares: ShareStats[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of runners) {
    const parsed = parseK6Json(r.text);
    for (const [metric, d] of parsed.declared) declared.set(metric, d);
    let n = 0;
    for (const [metric, list] of parsed.points) {
      n += list.length;
      const into = union.get(metric) ?? [];
      for (const s of list) {
        into.push(s);
        if (s.time < first) first = s.time;
        if (s.time > last) last = s.time;
      }
      union.set(metric, into);
    }
    const requests = parsed.points.get('http_reqs') ?? [];
    // A loop, not Math.min(...): a long run has more requests than a call has arguments.
    let firstRequestAt = Number.POSITIVE_INFINITY;
    for (const s of requests) if (s.time < firstRequestAt) firstRequestAt = s.time;
    samples[r.name] = n;
    shares.push({
      name: r.name,
      segment: r.segment,
      exitCode: r.exitCode,
      samples: n,
      requests: requests.length,
      firstRequestAt: Number.isFinite(firstRequestAt) ? firstRequestAt : null,
    });
    const share = `${r.name} (segment ${r.segment})`;
    if (r.exitCode === null) incomplete.push(`${share}: the process did not end (killed or lost)`);
    else if (r.exitCode !== 0 && r.exitCode !== THRESHOLDS_FAILED_EXIT)
      incomplete.push(`${share}: k6 exited ${r.exitCode}`);
    if (parsed.truncated) incomplete.push(`${share}: its output is truncated`);
    if (n === 0) incomplete.push(`${share}: it wrote no samples`);
  }
  // A share that started late missed its part of the shared ramp: the union is not the run planned.
  const starts = shares.map((s) => s.firstRequestAt).filter((t): t is number => t !== null);
  const earliest = Math.min(...starts);
  const late = options.lateStartMs ?? LATE_START_MS;
  for (const s of shares) {
    if (s.firstRequestAt !== null && s.firstRequestAt - earliest > late) {
      incomplete.push(
        `${s.name} (segment ${s.segment}): it started ${((s.firstRequestAt - earliest) / 1000).toFixed(1)} s after the first runner`,
      );
    }
  }
  const results: ThresholdResult[] = [];
  for (const [name, expressions] of Object.entries(thresholds)) {
    const values = valuesOf(union, name);
    const kind = declared.get(parseThresholdName(name).metric)?.type;
    for (const expression of expressions) {
      results.push({ name, expression, ...judge(expression, values, kind) });
    }
  }
  const verdict: MergedVerdict =
    incomplete.length > 0 ? 'incomplete' : results.every((t) => t.ok) ? 'passed' : 'failed';
  const durationMs = Number.isFinite(last - first) ? last - first : 0;
  return { verdict, incomplete, thresholds: results, samples, shares, union, declared, durationMs };
}

/** The values of `metric{tag:value,...}` in the union: the samples carrying every tag asked for. */
export function valuesOf(union: Map<string, Sample[]>, name: string): number[] {
  const { metric, tags } = parseThresholdName(name);
  const wanted = Object.entries(tags);
  const values: number[] = [];
  for (const s of union.get(metric) ?? []) {
    if (wanted.every(([k, v]) => s.tags[k] === v)) values.push(s.value);
  }
  return values;
}

/** The consecutive execution segments of N runners and the sequence all of them share. */
export function executionSegments(n: number): { segments: string[]; sequence: string } {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--runners must be a whole number >= 1, got ${n}`);
  const cut = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  const segments = Array.from({ length: n }, (_, i) => `${cut(i)}:${cut(i + 1)}`);
  const sequence = Array.from({ length: n + 1 }, (_, i) => cut(i)).join(',');
  return { segments, sequence };
}
