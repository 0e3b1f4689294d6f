import { describe, expect, it } from 'vitest';
import {
  executionSegments,
  judge,
  mergeRunners,
  parseK6Json,
  percentile,
  type RunnerOutput,
} from '../../../src/launcher/merge/samples.js';
import { pooledPercentileRange } from '../../support/percentile-bracket.ts';

function point(metric: string, value: number, tags: Record<string, string>): string {
  return `${JSON.stringify({ type: 'Point', metric, data: { time: '2026-11-28T00:00:00Z', value, tags } })}\n`;
}

function runner(name: string, durations: number[], exitCode: number | null = 0): RunnerOutput {
  let text = `${JSON.stringify({ type: 'Metric', metric: 'http_req_duration', data: { type: 'trend' } })}\n`;
  for (const d of durations) {
    text += point('http_req_duration', d, { endpoint: 'customers', scenario: 'users' });
    text += point('release_errors', 0, { endpoint: 'customers' });
  }
  return { name, segment: '0:1', exitCode, text };
}

describe('merging runners judges thresholds on the union of samples', () => {
  it("judges p95 on the union, not on an average of the runners' p95s", () => {
    // Three runners see 10 ms, one sees the slow tail at 100 ms. The mean of the per-runner p95s
    // (32.5 ms) passes p(95)<50; the union's p95 is 100 ms and fails it.
    const runners = [
      runner('runner-1', Array(100).fill(10)),
      runner('runner-2', Array(100).fill(10)),
      runner('runner-3', Array(100).fill(10)),
      runner('runner-4', Array(100).fill(100)),
    ];
    const thresholds = { 'http_req_duration{endpoint:customers}': ['p(95)<50'] };
    const alone = runners.map((r) => mergeRunners([r], thresholds).thresholds[0]?.value as number);
    expect(alone).toEqual([10, 10, 10, 100]);
    expect(alone.reduce((a, b) => a + b, 0) / alone.length).toBeLessThan(50);
    const merged = mergeRunners(runners, thresholds);
    expect(merged.thresholds[0]?.value).toBe(100);
    expect(merged.verdict).toBe('failed');
    expect(merged.samples['runner-4']).toBe(200);
  });

  it("can put the union's interpolated p95 above every runner's, never outside their rank bracket", () => {
    // k6 interpolates between the two closest ranks, and the union's ranks fall elsewhere: here
    // each runner passes p(95)<5.5 on its own (5.4 and 4.9) and the union (5.65) fails it. What
    // holds exactly is the bracket: between the smallest lower-rank value and the largest upper-rank one.
    const shares = [
      [0, 0, 1, 3, 6],
      [0, 4, 5],
    ];
    const runners = shares.map((d, i) => runner(`runner-${i + 1}`, d));
    const thresholds = { 'http_req_duration{endpoint:customers}': ['p(95)<5.5'] };
    const alone = runners.map((r) => mergeRunners([r], thresholds));
    expect(alone.map((m) => m.thresholds[0]?.value)).toEqual([5.4, 4.9].map((v) => expect.closeTo(v, 9)));
    expect(alone.map((m) => m.verdict)).toEqual(['passed', 'passed']);
    const merged = mergeRunners(runners, thresholds);
    expect(merged.thresholds[0]?.value).toBeCloseTo(5.65, 9);
    expect(merged.verdict).toBe('failed');
    const range = pooledPercentileRange(shares, 95);
    expect(range).toEqual({ min: 3, max: 6 });
    const union = merged.thresholds[0]?.value as number;
    expect(union).toBeGreaterThanOrEqual(range.min);
    expect(union).toBeLessThanOrEqual(range.max);
  });

  it('keeps the pooled percentile inside the rank bracket for any shares (randomised, seeded)', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 2000; trial++) {
      const shares = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
        Array.from({ length: 1 + Math.floor(next() * 12) }, () => Math.floor(next() * 20)),
      );
      for (const p of [50, 90, 95, 99]) {
        const union = percentile(
          shares.flat().sort((a, b) => a - b),
          p,
        );
        const range = pooledPercentileRange(shares, p);
        expect(union, JSON.stringify({ shares, p })).toBeGreaterThanOrEqual(range.min);
        expect(union, JSON.stringify({ shares, p })).toBeLessThanOrEqual(range.max);
      }
    }
  });

  it('sums counts and rates over runners and keeps the endpoint tag', () => {
    const a = runner('a', [1, 2, 3]);
    const b = runner('b', [4, 5]);
    b.text += point('release_errors', 1, { endpoint: 'customers' });
    b.text += point('http_req_duration', 999, { endpoint: 'user-me' });
    const merged = mergeRunners([a, b], {
      'http_req_duration{endpoint:customers}': ['count==5', 'max<6'],
      'release_errors{endpoint:customers}': ['rate<0.1'],
    });
    expect(merged.thresholds.map((t) => t.value)).toEqual([5, 5, 1 / 6]);
    expect(merged.thresholds.map((t) => t.ok)).toEqual([true, true, false]);
    expect(merged.verdict).toBe('failed');
  });

  it('a killed, crashed, truncated or empty share is incomplete, never passed, and named', () => {
    const whole = runner('runner-1', [1, 2, 3]);
    const cut = runner('runner-2', [1, 2, 3]);
    cut.text = cut.text.slice(0, -20);
    const th = { 'http_req_duration{endpoint:customers}': ['p(95)<1000'] };
    expect(mergeRunners([whole, runner('runner-2', [1, 2, 3])], th).verdict).toBe('passed');
    const withCut = mergeRunners([whole, cut], th);
    expect(withCut.verdict).toBe('incomplete');
    expect(withCut.incomplete.join('\n')).toMatch(/runner-2.*truncated/);
    const killed = mergeRunners([whole, runner('runner-3', [1], null)], th);
    expect(killed.verdict).toBe('incomplete');
    expect(killed.incomplete[0]).toMatch(/runner-3/);
    expect(mergeRunners([whole, runner('runner-4', [1], 107)], th).incomplete[0]).toMatch(
      /runner-4.*exited 107/,
    );
    expect(mergeRunners([whole, runner('runner-5', [])], th).incomplete[0]).toMatch(/runner-5.*no samples/);
    // k6's own threshold failure (99) is a whole share: the union is judged afresh.
    expect(mergeRunners([whole, runner('runner-6', [1], 99)], th).verdict).toBe('passed');
  });

  it('percentiles interpolate like k6 and a threshold with no sample cannot pass', () => {
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentile([10, 20], 95)).toBeCloseTo(19.5);
    expect(judge('p(95)<10', [])).toEqual({ value: null, ok: false });
    expect(parseK6Json('{"type":"Point"').truncated).toBe(true);
  });

  it('splits N runners into consecutive segments of one sequence', () => {
    expect(executionSegments(4)).toEqual({
      segments: ['0:1/4', '1/4:2/4', '2/4:3/4', '3/4:1'],
      sequence: '0,1/4,2/4,3/4,1',
    });
    expect(executionSegments(1).segments).toEqual(['0:1']);
    expect(() => executionSegments(0)).toThrow();
  });
});

describe('late starts and counters that never moved', () => {
  const timed = (name: string, at: string) => ({
    name,
    segment: '0:1',
    exitCode: 0,
    text: `${JSON.stringify({ type: 'Point', metric: 'http_reqs', data: { time: at, value: 1, tags: {} } })}\n`,
  });
  it("a share whose first request came over 10 s after the first share's is incomplete, named", () => {
    const th = { http_reqs: ['count>0'] };
    const together = mergeRunners(
      [timed('a', '2026-11-28T10:00:00Z'), timed('b', '2026-11-28T10:00:04Z')],
      th,
    );
    expect(together.verdict).toBe('passed');
    const late = mergeRunners([timed('a', '2026-11-28T10:00:00Z'), timed('b', '2026-11-28T10:00:15Z')], th);
    expect(late.verdict).toBe('incomplete');
    expect(late.incomplete).toEqual(['b (segment 0:1): it started 15.0 s after the first runner']);
  });
  it('count thresholds of a metric no runner moved are judged on 0, as k6 does; others cannot pass', () => {
    expect(judge('count==0', [])).toEqual({ value: 0, ok: true });
    expect(judge('count>0', [])).toEqual({ value: 0, ok: false });
    expect(judge('rate<0.01', [])).toEqual({ value: null, ok: false });
  });
});

it("a counter's count is the sum of what was added, a trend's the number of samples", () => {
  expect(judge('count==7', [5, 2], 'counter').value).toBe(7);
  expect(judge('count==2', [5, 2], 'trend').ok).toBe(true);
  const text = `${JSON.stringify({ type: 'Metric', metric: 'sent', data: { type: 'counter' } })}\n${JSON.stringify({ type: 'Point', metric: 'sent', data: { value: 5, tags: {} } })}\n`;
  expect(
    mergeRunners([{ name: 'a', segment: '0:1', exitCode: 0, text }], { sent: ['count==5'] }).verdict,
  ).toBe('passed');
});
