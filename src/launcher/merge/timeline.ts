// The limiter over time of a split run, drawn from the union of the runners' raw samples: every
// http_reqs sample (one per request, with its status and time) counted into at most 240 columns,
// as the rate-limit probe's own timeline is (load/lib/limit-probe.ts), so index.html draws the
// merged run's 429s with the same picture (load/lib/summary/limiter-chart.ts).
import type { TimelinePoint } from '../../../load/lib/limit-probe.ts';
import type { Sample } from './samples.ts';

const COLUMNS = 240;

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
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of timed) {
    first = Math.min(first, s.time);
    last = Math.max(last, s.time);
  }
  const width = Math.max(1, Math.ceil((last - first + 1) / COLUMNS));
  const columns = new Map<number, TimelinePoint>();
  for (const s of timed) {
    const index = Math.floor((s.time - first) / width);
    const point = columns.get(index) ?? { atMs: index * width, accepted: 0, limited: 0, other: 0 };
    point[kindOf(s.tags.status)] += s.value > 0 ? s.value : 1;
    columns.set(index, point);
  }
  return [...columns.values()].sort((a, b) => a.atMs - b.atMs);
}
