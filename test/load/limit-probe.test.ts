// The rate-limit probe's logic against simulated limiters of every shape (virtual clock): each
// figure within 20 % of the truth, inside the time budget, and every limiter fault seen.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type ProbeLimits, runLimitProbe } from '../../load/lib/limit-probe.ts';
import { type Simulation, simulatedIO } from './simulated-limiter.ts';

const SMOKE: ProbeLimits = { ...DEFAULT_LIMITS, budgetMs: 60_000, maxBurst: 2000 };

function within(measured: number | undefined, truth: number, label: string): void {
  expect(measured, label).toBeDefined();
  expect(
    Math.abs((measured as number) - truth) / truth,
    `${label}: measured ${measured}, truth ${truth}`,
  ).toBeLessThanOrEqual(0.2);
}

function probe(sim: Simulation, limits = SMOKE) {
  return runLimitProbe(simulatedIO(sim), limits);
}

describe('runLimitProbe', () => {
  it.each([
    ['1 s fixed window, 20 per window, headers on', 20, 1, true],
    ['10 s fixed window, 100 per window, no headers', 100, 10, false],
    ['5 s fixed window, 7 per window', 7, 5, false],
  ] as const)('%s', (_, limit, windowSeconds, headers) => {
    const result = probe({ limit: { limit, windowSeconds }, headers });
    expect(result.limit).toMatchObject({ limited: true, shape: 'window', missing: [] });
    within(result.limit.burst, limit, 'burst');
    within(result.limit.limitPerWindow, limit, 'limitPerWindow');
    within(result.limit.windowSeconds, windowSeconds, 'windowSeconds');
    within(result.limit.ratePerSecond, limit / windowSeconds, 'ratePerSecond');
    expect(result.durationMs).toBeLessThanOrEqual(60_000);
    if (headers) expect(result.limit.declared).toMatchObject({ quota: limit, windowSeconds });
    else expect(result.limit.declared.quota).toBeUndefined();
    expect(result.tally).toMatchObject({ malformed429: 0, serverErrors: 0, other: 0 });
    expect(result.tally.afterRetryAfter).toMatchObject({ refused: 0, honoured: 2 });
  });

  it('a 60 s window within the default budget (about three windows plus 30 s)', () => {
    const result = probe({ limit: { limit: 600, windowSeconds: 60 } }, DEFAULT_LIMITS);
    within(result.limit.limitPerWindow, 600, 'limitPerWindow');
    within(result.limit.windowSeconds, 60, 'windowSeconds');
    expect(result.durationMs).toBeLessThanOrEqual(210_000);
  });

  it('a clock-aligned fixed window, met in the middle of a window', () => {
    const result = probe({
      limit: { shape: 'aligned-window', limit: 30, windowSeconds: 3 },
      startMs: 1_001_700,
    });
    expect(result.limit.shape).toBe('window');
    within(result.limit.burst, 30, 'burst');
    within(result.limit.windowSeconds, 3, 'windowSeconds');
  });

  it('a sliding window', () => {
    const result = probe({ limit: { limit: 40, windowSeconds: 4, shape: 'sliding-window' } });
    within(result.limit.burst, 40, 'burst');
    within(result.limit.ratePerSecond, 10, 'ratePerSecond');
  });

  it.each([
    ['in part', 100, 4],
    ['a few at a time', 300, 10],
  ] as const)(
    'a sliding window met by a slow first burst: the allowance comes back %s',
    (_, slowMs, batches) => {
      // The first burst's requests leave at the pace they came, slower than the probe sends later.
      const result = probe(
        {
          limit: { limit: 40, windowSeconds: 4, shape: 'sliding-window' },
          slowStart: { batches, latencyMs: slowMs },
        },
        { ...SMOKE, batch: 4 },
      );
      expect(result.limit.shape).toBe('window');
      expect(result.limit.method).toMatch(/a sliding window/);
      within(result.limit.burst, 40, 'burst');
      within(result.limit.windowSeconds, 4, 'windowSeconds');
      within(result.limit.ratePerSecond, 10, 'ratePerSecond');
    },
  );

  it('a fixed window whose first burst ran into the next window (a busy machine): not taken for a sliding one', () => {
    const result = probe({
      limit: { limit: 20, windowSeconds: 1 },
      slowStart: { batches: 2, latencyMs: 1100 },
    });
    expect(result.limit.method).toMatch(/whole: a window/);
    within(result.limit.burst, 20, 'burst');
    within(result.limit.windowSeconds, 1, 'windowSeconds');
  });

  it('a token bucket: capacity and refill rate', () => {
    const result = probe({
      limit: { limit: 25, windowSeconds: 1, shape: 'token-bucket', refillPerSecond: 5 },
      headers: true,
    });
    expect(result.limit).toMatchObject({ limited: true, shape: 'token-bucket', missing: [] });
    within(result.limit.burst, 25, 'burst');
    within(result.limit.ratePerSecond, 5, 'ratePerSecond');
    expect(result.durationMs).toBeLessThanOrEqual(60_000);
  });

  it('any shape within 20 % (property, virtual time; PROBE_PROPERTY_RUNS for more)', {
    timeout: 600_000,
  }, () => {
    const shape = fc.oneof(
      fc.record({
        shape: fc.constantFrom('fixed-window' as const, 'sliding-window' as const),
        limit: fc.integer({ min: 5, max: 300 }),
        windowSeconds: fc.integer({ min: 1, max: 10 }),
      }),
      fc.record({
        shape: fc.constant('token-bucket' as const),
        limit: fc.integer({ min: 5, max: 200 }),
        windowSeconds: fc.constant(1),
        refillPerSecond: fc.integer({ min: 1, max: 50 }),
      }),
    );
    fc.assert(
      fc.property(shape, fc.integer({ min: 1, max: 20 }), (limit, latencyMs) => {
        const result = probe({ limit, latencyMs });
        // Cannot tell is allowed (with its reason); a shape named is the right one, its figures within 20 %.
        if (result.limit.cannotTell) {
          expect(result.limit.shape).toBe('unknown');
          return;
        }
        expect(result.limit.shape).toBe(limit.shape === 'token-bucket' ? 'token-bucket' : 'window');
        const rate =
          limit.shape === 'token-bucket' ? limit.refillPerSecond : limit.limit / limit.windowSeconds;
        within(result.limit.burst, limit.limit, 'burst');
        within(result.limit.ratePerSecond, rate, 'ratePerSecond');
        expect(result.durationMs).toBeLessThanOrEqual(60_000);
      }),
      { numRuns: Number(process.env.PROBE_PROPERTY_RUNS ?? 60) },
    );
  });

  it.each([
    ['a 1 s fixed window', { limit: 20, windowSeconds: 1 }],
    ['a sliding window', { limit: 20, windowSeconds: 1, shape: 'sliding-window' as const }],
    ['a token bucket', { limit: 20, windowSeconds: 1, shape: 'token-bucket' as const, refillPerSecond: 10 }],
  ])(
    '%s seen by a starved k6 (every answer 600 ms late): cannot tell, with the reason, never a wrong shape',
    (_, limit) => {
      const result = probe({ limit, latencyMs: 600 });
      if (result.limit.limited) {
        expect(result.limit.shape).toBe('unknown');
        expect(result.limit.cannotTell).toMatch(/answers up to \d+ ms/);
      }
      expect(result.limit.timing?.roundTripMaxMs ?? 600).toBeGreaterThanOrEqual(600);
    },
  );

  it('a starved burst slower than the window is never refused: its pace is recorded for the verdict', () => {
    const result = probe({ limit: { limit: 20, windowSeconds: 1 }, headers: true, latencyMs: 1200 });
    expect(result.limit.limited).toBe(false);
    expect(result.limit.timing?.firstBurstPerSecond).toBeLessThan(40);
  });

  it('counts 429s without the error body', () => {
    const result = probe({ limit: { limit: 10, windowSeconds: 1 }, fault: 'no-body' });
    expect(result.tally.malformed429).toBeGreaterThan(0);
    expect(result.tally.malformedReasons).toContain('the body is not JSON');
  });

  it('counts 500s where the limiter should answer 429 (and still measures it)', () => {
    const result = probe({ limit: { limit: 10, windowSeconds: 1 }, fault: '500' });
    expect(result.tally.limited).toBe(0);
    expect(result.tally.serverErrors).toBeGreaterThan(0);
    expect(result.tally.refusalStatuses).toEqual([500]);
    within(result.limit.burst, 10, 'burst');
  });

  it('a declared limiter that never refuses stops soon after the declared quota', () => {
    const result = probe({ limit: { limit: 10, windowSeconds: 1 }, headers: true, fault: 'missing' });
    expect(result.limit.limited).toBe(false);
    expect(result.limit.declared.quota).toBe(10);
    expect(result.tally.accepted).toBeLessThan(100);
  });

  it('no limiter in reach: not limited, after at most maxBurst requests', () => {
    const io = simulatedIO({ limit: null });
    const result = runLimitProbe(io, SMOKE);
    expect(result.limit).toMatchObject({ limited: false, shape: 'unknown' });
    expect(io.requests()).toBeLessThanOrEqual(SMOKE.maxBurst + SMOKE.batch);
  });

  it('a Retry-After shorter than the real wait is caught by the polls after it', () => {
    const result = probe({ limit: { limit: 10, windowSeconds: 5 }, fault: 'retry-after-too-short' });
    expect(result.tally.afterRetryAfter.refused).toBeGreaterThan(0);
    expect(result.tally.afterRetryAfter.honoured).toBe(0);
  });

  it('past its budget it stops and names the figure it could not pin down', () => {
    const result = probe({ limit: { limit: 10, windowSeconds: 50 } }, { ...SMOKE, budgetMs: 30_000 });
    expect(result.limit.limited).toBe(true);
    expect(result.limit.missing.join(' ')).toMatch(/refill|windowSeconds/);
    expect(result.durationMs).toBeLessThanOrEqual(31_000);
  });

  it('stops with the reason when the route refuses the credentials', () => {
    const io = simulatedIO({ limit: null });
    const send = io.send;
    io.send = (n) => send(n).map((a) => ({ ...a, status: 401 }));
    const result = runLimitProbe(io, SMOKE);
    expect(result.stoppedBecause).toMatch(/HTTP 401/);
    expect(result.limit.limited).toBe(false);
  });
});
