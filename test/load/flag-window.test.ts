// The flag-cache rule as the probe checks it: data renewed at most once per 60 s. Polls are
// synthetic (a server that renews every 60 s, or on every call, or too early once).
import { describe, expect, it } from 'vitest';
import { changeTimes, flagCacheFindings } from '../../load/lib/flag-cache-findings.ts';
import { readFlagPlan } from '../../load/lib/flag-plan.ts';
import { analyseFlagPolls, canonical, type FlagPoll, FlagWindowTracker } from '../../load/lib/flag-window.ts';

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
  const plan = readFlagPlan({ LOAD_PROFILE: 'smoke' }, true);
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
