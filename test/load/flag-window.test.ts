// The flag-cache rule as the probe checks it: data renewed at most once per 60 s. Polls are
// synthetic (a server that renews every 60 s, or on every call, or too early once).
import { describe, expect, it } from 'vitest';
import {
  analyseFlagPolls,
  canonical,
  type FlagPoll,
  FlagWindowTracker,
  flagWatchPlan,
  judgeRenewal,
  judgeWindow,
  type WatchTick,
} from '../../common/flag-window.ts';
import { changeTimes, flagCacheFindings } from '../../load/lib/flag-cache-findings.ts';
import { readFlagPlan } from '../../load/lib/flag-plan.ts';

/** Flag data that differs for every renewal number. */
const body = (renewal: number) =>
  JSON.stringify({
    data: [
      { name: 'new-dashboard', enabled: renewal % 2 === 0 },
      { name: 'n', enabled: renewal },
    ],
  });

/**
 * One poller every `pollMs` for `durationMs`; the server renews the data at `renewals` (ms), and the
 * poller sees the newest renewal at or before its poll.
 */
function polls(renewals: number[], pollMs: number, durationMs: number, startMs = 0): FlagPoll[] {
  const out: FlagPoll[] = [];
  for (let at = startMs; at <= durationMs; at += pollMs) {
    const renewal = renewals.filter((r) => r <= at).length;
    out.push({ atMs: at, status: 200, body: body(renewal) });
  }
  return out;
}

describe('FlagWindowTracker', () => {
  it('sees renewals 60 s apart as changes, not violations', () => {
    const analysis = analyseFlagPolls([polls([60_000, 120_000, 180_000], 5000, 200_000)]);
    expect(analysis.changes.map((c) => c.atMs)).toEqual([60_000, 120_000, 180_000]);
    expect(analysis.violations).toEqual([]);
  });

  it('flags data renewed on every call (no cache)', () => {
    const renewals = Array.from({ length: 40 }, (_, i) => i * 5000 + 1);
    const analysis = analyseFlagPolls([polls(renewals, 5000, 200_000)]);
    expect(analysis.violations.length).toBeGreaterThan(30);
    expect(analysis.violations[0]?.maxGapMs).toBeLessThan(60_000);
  });

  it('flags one early renewal and says when the previous one was seen', () => {
    const analysis = analyseFlagPolls([polls([60_000, 90_000, 150_000], 5000, 200_000)]);
    expect(analysis.violations).toHaveLength(1);
    expect(analysis.violations[0]).toMatchObject({
      atMs: 90_000,
      previousChangeAtMs: 60_000,
      maxGapMs: 35_000,
    });
  });

  it('gives the benefit of the doubt when polls are sparse (the renewal may have been early in the gap)', () => {
    // Polls every 20 s: renewals at 61 s and 119 s are seen at 80 s and 120 s; they can have been
    // up to 120 - 60 = 60 s apart, so no proof of a violation.
    const analysis = analyseFlagPolls([polls([61_000, 119_000], 20_000, 140_000)]);
    expect(analysis.changes).toHaveLength(2);
    expect(analysis.violations).toEqual([]);
  });

  it('allows the tolerance for clock differences, and no more', () => {
    const renewals = [60_000, 119_000]; // at most 59.5 s apart as seen by 500 ms polls
    const poll = (tolerance: number) =>
      analyseFlagPolls([polls(renewals, 500, 130_000)], { toleranceMs: tolerance }).violations.length;
    expect(poll(1000)).toBe(0);
    expect(poll(0)).toBe(1);
  });

  it('counts 429s and errors without treating them as data', () => {
    const tracker = new FlagWindowTracker();
    expect(tracker.observe({ atMs: 0, status: 200, body: body(0) })).toEqual({ rateLimited: false });
    expect(tracker.observe({ atMs: 1000, status: 429, body: '{"code":"RATE_LIMITED"}' })).toEqual({
      rateLimited: true,
    });
    expect(tracker.observe({ atMs: 2000, status: 503, body: '{"code":"X"}' })).toEqual({
      rateLimited: false,
    });
    expect(tracker.observe({ atMs: 3000, status: 200, body: body(0) }).change).toBeUndefined();
    const analysis = analyseFlagPolls([
      [
        { atMs: 0, status: 200, body: body(0) },
        { atMs: 1, status: 429, body: null },
        { atMs: 2, status: 500, body: null },
      ],
    ]);
    expect(analysis).toMatchObject({ polls: 3, rateLimited: 1, errors: 1, changes: [] });
  });

  it('compares JSON by value: key order and whitespace are not a change', () => {
    expect(canonical('{"b":1,"a":[{"y":2,"x":1}]}')).toBe(canonical('{ "a": [ {"x":1, "y":2} ], "b": 1 }'));
    const tracker = new FlagWindowTracker();
    tracker.observe({ atMs: 0, status: 200, body: '{"a":1,"b":2}' });
    expect(tracker.observe({ atMs: 1000, status: 200, body: '{ "b": 2, "a": 1 }' }).change).toBeUndefined();
  });

  it('judges each poller on its own view (one poller each per user)', () => {
    const a = polls([60_000, 120_000], 5000, 130_000);
    const b = polls([10_000, 20_000], 5000, 30_000);
    const analysis = analyseFlagPolls([a, b]);
    expect(analysis.changes).toHaveLength(4);
    expect(analysis.violations).toHaveLength(1);
  });
});

describe('flagCacheFindings', () => {
  const plan = readFlagPlan({}, true, 'smoke');
  const metrics = (violations: number, limited: number, intervals?: { min: number; count: number }) => ({
    flag_cache_polls: { type: 'counter' as const, values: { count: 36 } },
    flag_cache_violations: { type: 'counter' as const, values: { count: violations } },
    flag_cache_rate_limited: { type: 'counter' as const, values: { count: limited } },
    ...(intervals ? { flag_cache_change_interval_s: { type: 'trend' as const, values: intervals } } : {}),
    'flag_cache_changes{sec:65}': { type: 'counter' as const, values: { count: 3 } },
    'flag_cache_changes{sec:130}': { type: 'counter' as const, values: { count: 2 } },
    'flag_cache_changes{sec:10}': { type: 'counter' as const, values: { count: 0 } },
  });

  it('passes a clean run and reports the change times and shortest gap', () => {
    const findings = flagCacheFindings(metrics(0, 0, { min: 65, count: 3 }), plan);
    expect(findings.verdicts.map((v) => v.ok)).toEqual([true, true]);
    expect(findings.figures.find((f) => f.label === 'changes seen at (s)')?.value).toBe('65 (3), 130 (2)');
    expect(findings.figures.find((f) => f.label.startsWith('shortest'))?.value).toBe('65.0 s');
  });

  it('fails on violations and on 429s', () => {
    const findings = flagCacheFindings(metrics(4, 2, { min: 13, count: 9 }), plan);
    expect(findings.verdicts[0]).toMatchObject({ ok: false, detail: '4 violation(s)' });
    expect(findings.verdicts[1]).toMatchObject({ ok: false });
    expect(findings.verdicts[1]?.detail).toMatch(/2 polls answered 429/);
  });

  it('cannot decide when no poller saw two renewals', () => {
    const findings = flagCacheFindings(metrics(0, 0), plan);
    expect(findings.verdicts[0]?.ok).toBeNull();
    expect(findings.verdicts[0]?.detail).toMatch(/no poller saw two renewals/);
  });

  it('lists change times in order, leaving seconds without changes out', () => {
    expect(changeTimes(metrics(0, 0))).toEqual([
      { second: 65, pollers: 3 },
      { second: 130, pollers: 2 },
    ]);
  });
});

describe('polls with the moment they were sent', () => {
  it('judges the longest possible gap: from when the poll before the first change was sent', () => {
    const poll = (sentAtMs: number, atMs: number, renewal: number) => ({
      sentAtMs,
      atMs,
      status: 200,
      body: body(renewal),
    });
    const run = [poll(0, 400, 0), poll(1000, 1400, 1), poll(2000, 2400, 1), poll(3000, 3400, 2)];
    const tracker = new FlagWindowTracker({ windowMs: 4000, toleranceMs: 0 });
    const seen = run.map((p) => tracker.observe(p));
    // The first renewal may have come right after 0 (when the poll before was sent), not at 400.
    expect(seen[1]?.change).toEqual({ atMs: 1400, afterMs: 0 });
    // The two renewals can lie up to 3400 - 0 ms apart: less than 4000, more than 3400 - 1000.
    expect(seen[3]?.violation?.maxGapMs).toBe(3400);
    const lenient = new FlagWindowTracker({ windowMs: 3400, toleranceMs: 0 });
    expect(run.map((p) => lenient.observe(p)).some((o) => o.violation)).toBe(false);
  });
});

describe('flagWatchPlan', () => {
  it('watches two windows and a little more at a few polls a minute', () => {
    const plan = flagWatchPlan(60_000);
    expect(plan).toEqual({
      windowMs: 60_000,
      pollMs: 10_000,
      durationMs: 160_000,
      polls: 17,
      toleranceMs: 1000,
    });
    expect(flagWatchPlan(3000)).toMatchObject({ pollMs: 500, durationMs: 8000, polls: 17, toleranceMs: 150 });
  });
});

describe('judgeWindow', () => {
  const plan = flagWatchPlan(60_000);
  const judge = (renewals: number[]) =>
    judgeWindow(analyseFlagPolls([polls(renewals, plan.pollMs, plan.durationMs)], plan), plan.windowMs);

  it('fails two changes closer than the window', () => {
    const verdict = judge([30_000, 60_000, 90_000]);
    expect(verdict.outcome).toBe('failed');
    expect(verdict.detail).toMatch(
      /changed at 30\.0 s and again at 60\.0 s: at most 40\.0 s apart, less than the 60\.0 s window/,
    );
  });

  it('passes changes a window apart', () => {
    expect(judge([60_000, 120_000])).toEqual({
      outcome: 'passed',
      detail: '2 changes seen, none within 60.0 s of the previous one',
    });
  });

  it('is inconclusive with one change or none', () => {
    expect(judge([])).toMatchObject({
      outcome: 'inconclusive',
      detail: expect.stringMatching(/never changed/),
    });
    expect(judge([70_000])).toMatchObject({
      outcome: 'inconclusive',
      detail: expect.stringMatching(/only once/),
    });
  });
});

describe('judgeRenewal', () => {
  const W = 3000;
  /**
   * A watch of `n` ticks every 500 ms: the route's feature is off from `offFromMs`, and the flag data
   * is the given renewal number at each tick.
   */
  function watch(n: number, offFromMs: number, renewalAt: (ms: number) => number): WatchTick[] {
    return Array.from({ length: n }, (_, i) => {
      const at = i * 500;
      return {
        flags: { sentAtMs: at, atMs: at + 5, status: 200, body: body(renewalAt(at)) },
        route: { sentAtMs: at + 6, atMs: at + 10, state: at + 6 >= offFromMs ? 'disabled' : 'enabled' },
      };
    });
  }

  it('fails data that stays the same for a window after the feature changed', () => {
    const verdict = judgeRenewal(
      watch(17, 3600, () => 0),
      W,
      150,
      '/v1/reports',
    );
    expect(verdict.outcome).toBe('failed');
    expect(verdict.detail).toBe(
      'GET /v1/reports showed its feature enabled from 0.0 s and disabled from 4.0 s, yet GET /v1/feature-flags ' +
        'answered the same data at 3.5 s and at 7.5 s, more than the 3.0 s window after the change',
    );
  });

  it('passes data that followed the change', () => {
    const verdict = judgeRenewal(
      watch(17, 3600, (ms) => (ms >= 6000 ? 1 : 0)),
      W,
      150,
      '/v1/reports',
    );
    expect(verdict).toMatchObject({
      outcome: 'passed',
      detail: expect.stringMatching(/the flag data followed/),
    });
  });

  it('does not judge stretches shorter than a window (the data may not have been renewed yet)', () => {
    // Off from 2.6 s: the enabled stretch is shorter than the window plus its tolerance.
    const verdict = judgeRenewal(
      watch(17, 2600, () => 0),
      W,
      150,
    );
    expect(verdict.outcome).toBe('inconclusive');
    // Off only for the last 3 s: the disabled stretch is too short.
    expect(
      judgeRenewal(
        watch(17, 5100, () => 0),
        W,
        150,
      ).outcome,
    ).toBe('inconclusive');
  });

  it('breaks a stretch where the route answered something else', () => {
    const ticks = watch(17, 3600, () => 0);
    const late = ticks[12]?.route;
    if (late) late.state = 'unknown';
    expect(judgeRenewal(ticks, W, 150).outcome).toBe('inconclusive');
  });

  it('without a guarded route: a change of the data passes, none is inconclusive', () => {
    const flagsOnly = (renewalAt: (ms: number) => number) =>
      watch(17, Number.POSITIVE_INFINITY, renewalAt).map(({ flags }) => ({ flags }));
    expect(
      judgeRenewal(
        flagsOnly((ms) => (ms >= 4000 ? 1 : 0)),
        W,
      ).outcome,
    ).toBe('passed');
    expect(
      judgeRenewal(
        flagsOnly(() => 0),
        W,
      ),
    ).toEqual({
      outcome: 'inconclusive',
      detail: 'the flag data never changed and no flag-guarded route changed state',
    });
  });
});
