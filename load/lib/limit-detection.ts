// Where the limiter starts answering 429, from what the probe saw: per-second counts of accepted
// and limited (429) requests. Pure, so vitest feeds it samples the reference server's limiter
// produced and k6's handleSummary feeds it the per-second counters.

export interface Sample {
  /** Milliseconds since the probe started. */
  atMs: number;
  status: number;
}

export interface Bucket {
  second: number;
  /** 2xx and 3xx answers. */
  accepted: number;
  /** 429 answers. */
  limited: number;
}

export interface LimitEstimate {
  limited: boolean;
  /**
   * How the limit was measured: over one whole window between two resets; over the window that ended
   * at the first reset (its start found from the configured length); or up to the first 429.
   */
  method: 'full-window' | 'reset-aligned' | 'before-first-429' | 'none';
  firstLimitedSecond?: number;
  /** Requests sent in the second the first 429 came back: the rate at which 429s begin (req/s). */
  onsetRate?: number;
  /** Requests accepted in one window of the limiter. */
  limitPerWindow?: number;
  windowSeconds?: number;
  windowSource?: 'configured' | 'measured';
  /** limitPerWindow / windowSeconds: the sustained rate the limiter allows. */
  ratePerSecond?: number;
  /** The highest number of requests accepted in one second. */
  maxAcceptedPerSecond: number;
}

/** Per-second buckets, dense from second 0 to the last sample; statuses other than 2xx/3xx/429 are left out. */
export function bucketSamples(samples: readonly Sample[], bucketMs = 1000): Bucket[] {
  const buckets: Bucket[] = [];
  for (const sample of samples) {
    const second = Math.max(0, Math.floor(sample.atMs / bucketMs));
    while (buckets.length <= second) buckets.push({ second: buckets.length, accepted: 0, limited: 0 });
    const bucket = buckets[second] as Bucket;
    if (sample.status === 429) bucket.limited += 1;
    else if (sample.status >= 200 && sample.status < 400) bucket.accepted += 1;
  }
  return buckets;
}

function sum(buckets: readonly Bucket[], from: number, to: number): number {
  let total = 0;
  for (const b of buckets) if (b.second >= from && b.second <= to) total += b.accepted;
  return total;
}

const firstIndex = (buckets: readonly Bucket[], after: number, test: (b: Bucket) => boolean): number =>
  buckets.findIndex((b, i) => i > after && test(b));

/**
 * A fixed window shows as: accepted seconds, the first 429, seconds answered only with 429, then
 * acceptance again at the reset (r1) until the window is full again (s2). The accepted requests from
 * r1 to s2 are exactly one window's limit whatever the window's alignment; the distance between two
 * resets is its length. Without such a window (a short run, a sliding limiter), the limit is what
 * was accepted up to the first 429 (within the configured window when one is given).
 */
export function detectLimit(
  input: readonly Bucket[],
  options: { windowSeconds?: number } = {},
): LimitEstimate {
  const buckets = dense(input);
  const maxAcceptedPerSecond = buckets.reduce((m, b) => Math.max(m, b.accepted), 0);
  const s1 = buckets.findIndex((b) => b.limited > 0);
  if (s1 < 0) return { limited: false, method: 'none', maxAcceptedPerSecond };
  const first = buckets[s1] as Bucket;
  const base = {
    limited: true,
    firstLimitedSecond: first.second,
    onsetRate: first.accepted + first.limited,
    maxAcceptedPerSecond,
  };
  const configured = options.windowSeconds;

  const r1 = firstIndex(buckets, s1, (b) => b.accepted > 0);
  const blockedBetween = r1 > 0 && buckets.slice(s1 + 1, r1).some((b) => b.accepted === 0 && b.limited > 0);
  const s2 = r1 > 0 ? firstIndex(buckets, r1, (b) => b.limited > 0) : -1;
  if (blockedBetween && s2 > 0) {
    const resume = buckets[r1] as Bucket;
    const refill = buckets[s2] as Bucket;
    const fits = configured === undefined || refill.second - resume.second <= configured;
    if (fits) {
      const limitPerWindow = sum(buckets, resume.second, refill.second);
      const r2 = firstIndex(buckets, s2, (b) => b.accepted > 0);
      const measured = r2 > 0 ? (buckets[r2] as Bucket).second - resume.second : undefined;
      const windowSeconds = configured ?? measured;
      return {
        ...base,
        method: 'full-window',
        limitPerWindow,
        ...(windowSeconds !== undefined
          ? {
              windowSeconds,
              windowSource: configured !== undefined ? 'configured' : 'measured',
              ratePerSecond: round(limitPerWindow / windowSeconds),
            }
          : {}),
      };
    }
  }

  if (blockedBetween && configured !== undefined) {
    // The limited stretch ends where its window ends: that window opened `configured` seconds
    // before the reset, so what it accepted is counted from there (earlier windows left out).
    const resume = buckets[r1] as Bucket;
    const limitPerWindow = sum(buckets, Math.max(0, resume.second - configured), first.second);
    return {
      ...base,
      method: 'reset-aligned',
      limitPerWindow,
      windowSeconds: configured,
      windowSource: 'configured',
      ratePerSecond: round(limitPerWindow / configured),
    };
  }

  const from = configured === undefined ? 0 : first.second - configured + 1;
  const limitPerWindow = sum(buckets, from, first.second);
  return {
    ...base,
    method: 'before-first-429',
    limitPerWindow,
    ...(configured !== undefined
      ? {
          windowSeconds: configured,
          windowSource: 'configured',
          ratePerSecond: round(limitPerWindow / configured),
        }
      : {}),
  };
}

/** Sorted, with every missing second present as an empty bucket (indexes are then seconds). */
function dense(input: readonly Bucket[]): Bucket[] {
  const last = input.reduce((m, b) => Math.max(m, b.second), -1);
  const buckets = Array.from({ length: last + 1 }, (_, second) => ({ second, accepted: 0, limited: 0 }));
  for (const b of input) {
    const slot = buckets[b.second];
    if (slot && b.second >= 0) {
      slot.accepted += b.accepted;
      slot.limited += b.limited;
    }
  }
  return buckets;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Buckets from k6's end-of-test summary: the script tags its counters with the second (`sec`) and
 * declares a threshold per second, which makes k6 report each `name{sec:N}` sub-metric.
 */
export function bucketsFromSummary(
  metrics: Readonly<Record<string, { values?: Record<string, number> } | undefined>>,
  names: { accepted: string; limited: string },
): Bucket[] {
  const counts = new Map<number, Bucket>();
  const pattern = /^(.+)\{sec:(\d+)\}$/;
  for (const [key, metric] of Object.entries(metrics)) {
    const match = pattern.exec(key);
    if (!match) continue;
    const [, name, sec] = match;
    if (name !== names.accepted && name !== names.limited) continue;
    const second = Number(sec);
    const bucket = counts.get(second) ?? { second, accepted: 0, limited: 0 };
    const count = metric?.values?.count ?? 0;
    if (name === names.accepted) bucket.accepted += count;
    else bucket.limited += count;
    counts.set(second, bucket);
  }
  return [...counts.values()].sort((a, b) => a.second - b.second);
}
