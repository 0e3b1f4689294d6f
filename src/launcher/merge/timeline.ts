// The limiter over time of a split run, drawn from the union of the runners' raw samples: every
// http_reqs sample (one per request, with its status and time) counted into at most 240 columns,
// as the rate-limit probe's own timeline is (load/lib/limit-probe.ts), so index.html draws the
// merged run's 429s with the same picture (load/lib/summary/limiter-chart.ts).
import type { TimelinePoint } from '../../../load/lib/limit-probe.ts';
import type { LatencyPoint } from '../../../load/lib/summary/latency-chart.ts';
import { percentile, type Sample } from './samples.ts';

const COLUMNS = 240;

/** The first sample's time and the width of `columns` equal columns over the samples' span (a loop: no spread of 100,000s). */
function columnsOf(timed: readonly Sample[], columns: number): { first: number; width: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of timed) {
    first = Math.min(first, s.time);
    last = Math.max(last, s.time);
  }
  return { first, width: Math.max(1, Math.ceil((last - first + 1) / columns)) };
}

/** accepted, 429 (limited), or no answer / 5xx (other), as the probe's picture counts them. */
function kindOf(status: string | undefined): 'accepted' | 'limited' | 'other' {
  const code = Number(status);
  if (code === 429) return 'limited';
  if (!Number.isInteger(code) || code === 0 || code >= 500) return 'other';
  return 'accepted';
}

/** Columns of requests over the run, ms from the first request; undefined without timed samples. */
export function mergedTimeline(requests: readonly Sample[]): TimelinePoint[] | undefined {
  const timed = requests.filter((s) => Number.isFinite(s.time));
  if (timed.length === 0) return undefined;
  const { first, width } = columnsOf(timed, COLUMNS);
  const columns = new Map<number, TimelinePoint>();
  for (const s of timed) {
    const index = Math.floor((s.time - first) / width);
    const point = columns.get(index) ?? { atMs: index * width, accepted: 0, limited: 0, other: 0 };
    point[kindOf(s.tags.status)] += s.value > 0 ? s.value : 1;
    columns.set(index, point);
  }
  return [...columns.values()].sort((a, b) => a.atMs - b.atMs);
}

// Fewer columns than the limiter's: a p95 needs a few requests in each.
const LATENCY_COLUMNS = 60;

/**
 * The p95 of the request durations per endpoint (the `endpoint` tag) in each of 60 columns of the
 * run, from every runner's samples; undefined without timed, tagged samples.
 */
export function mergedLatency(durations: readonly Sample[]): LatencyPoint[] | undefined {
  const timed = durations.filter((s) => Number.isFinite(s.time) && s.tags.endpoint);
  if (timed.length === 0) return undefined;
  const { first, width } = columnsOf(timed, LATENCY_COLUMNS);
  const cells = new Map<string, { atMs: number; endpoint: string; values: number[] }>();
  for (const s of timed) {
    const index = Math.floor((s.time - first) / width);
    const endpoint = s.tags.endpoint as string;
    const key = `${endpoint} ${index}`;
    const cell = cells.get(key) ?? { atMs: index * width, endpoint, values: [] };
    cell.values.push(s.value);
    cells.set(key, cell);
  }
  return [...cells.values()]
    .map((c) => ({
      atMs: c.atMs,
      endpoint: c.endpoint,
      p95: percentile(
        c.values.sort((a, b) => a - b),
        95,
      ),
      count: c.values.length,
    }))
    .sort((a, b) => a.atMs - b.atMs || a.endpoint.localeCompare(b.endpoint));
}
