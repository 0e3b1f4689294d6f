// Limit detection: where the limiter starts answering 429, from per-second counts. Synthetic runs
// come from a fixed-window model fed with a stepped arrival rate; the last test feeds the pure
// helper with what the reference server's own limiter answers (its clock moved, no waiting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bucket,
  bucketSamples,
  bucketsFromSummary,
  detectLimit,
  type Sample,
} from '../../load/lib/limit-detection.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';

/** A small deterministic PRNG, so "noisy" runs are the same on every machine. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface RunModel {
  /** Offered requests per second, one entry per second. */
  rates: number[];
  limit: number;
  windowSeconds: number;
  /** Requests already counted in a window that opened this many ms before the probe. */
  preUsed?: { count: number; openedMsBefore: number };
  /** Spreads arrivals randomly inside their second and mixes in some 500s and 404s. */
  noise?: () => number;
}

/** A fixed window per credential, opened by the first request after the previous one ended. */
function simulate(model: RunModel): Sample[] {
  const windowMs = model.windowSeconds * 1000;
  let windowStart = model.preUsed ? -model.preUsed.openedMsBefore : undefined;
  let used = model.preUsed?.count ?? 0;
  const samples: Sample[] = [];
  model.rates.forEach((rate, second) => {
    for (let i = 0; i < rate; i++) {
      const offset = model.noise ? model.noise() * 1000 : (i * 1000) / rate;
      const atMs = second * 1000 + offset;
      if (model.noise && model.noise() < 0.03) {
        samples.push({ atMs, status: model.noise() < 0.5 ? 500 : 404 });
        continue;
      }
      if (windowStart === undefined || atMs >= windowStart + windowMs) {
        windowStart = atMs;
        used = 0;
      }
      if (used < model.limit) {
        used++;
        samples.push({ atMs, status: 200 });
      } else samples.push({ atMs, status: 429 });
    }
  });
  return samples.sort((a, b) => a.atMs - b.atMs);
}

/** A stepped ramp: each rate held for `hold` seconds. */
function ramp(rates: number[], hold: number): number[] {
  return rates.flatMap((r) => Array.from({ length: hold }, () => r));
}

const within = (observed: number | undefined, expected: number, share: number) => {
  expect(observed).toBeDefined();
  expect(Math.abs((observed as number) - expected) / expected).toBeLessThanOrEqual(share);
};

describe('bucketSamples', () => {
  it('counts accepted and limited answers per second and leaves other statuses out', () => {
    const buckets = bucketSamples([
      { atMs: 10, status: 200 },
      { atMs: 999, status: 304 },
      { atMs: 1000, status: 429 },
      { atMs: 2500, status: 500 },
      { atMs: 3100, status: 201 },
    ]);
    expect(buckets).toEqual([
      { second: 0, accepted: 2, limited: 0 },
      { second: 1, accepted: 0, limited: 1 },
      { second: 2, accepted: 0, limited: 0 },
      { second: 3, accepted: 1, limited: 0 },
    ]);
  });
});

describe('detectLimit on synthetic runs', () => {
  it('measures one whole window between two resets, and the window length', () => {
    const samples = simulate({ rates: ramp([2, 6, 10, 14], 9), limit: 50, windowSeconds: 10 });
    const estimate = detectLimit(bucketSamples(samples));
    expect(estimate.method).toBe('full-window');
    expect(estimate.limitPerWindow).toBe(50);
    expect(estimate.windowSeconds).toBe(10);
    expect(estimate.windowSource).toBe('measured');
    expect(estimate.ratePerSecond).toBe(5);
    expect(estimate.firstLimitedSecond).toBeGreaterThan(0);
  });

  it('uses a configured window for the rate', () => {
    const samples = simulate({ rates: ramp([2, 6, 10, 14], 6), limit: 50, windowSeconds: 10 });
    const estimate = detectLimit(bucketSamples(samples), { windowSeconds: 10 });
    expect(estimate).toMatchObject({ method: 'full-window', windowSource: 'configured', limitPerWindow: 50 });
  });

  it('stays within 20 % when arrivals are jittered and some answers are errors', () => {
    for (const seed of [1, 7, 42, 1234, 99_999]) {
      const samples = simulate({
        rates: ramp([3, 8, 13, 18], 8),
        limit: 60,
        windowSeconds: 10,
        noise: prng(seed),
      });
      const estimate = detectLimit(bucketSamples(samples), { windowSeconds: 10 });
      expect(estimate.limited).toBe(true);
      within(estimate.limitPerWindow, 60, 0.2);
    }
  });

  it('reports "not limited" and the highest accepted rate when no 429 came back', () => {
    const samples = simulate({ rates: ramp([2, 4, 6], 3), limit: 1000, windowSeconds: 60 });
    const estimate = detectLimit(bucketSamples(samples));
    expect(estimate).toEqual({ limited: false, method: 'none', maxAcceptedPerSecond: 6 });
  });

  it('finds the limit when the probe starts inside an exhausted window', () => {
    // Earlier traffic used the whole window 3 s before the probe: 429s from the first request.
    const samples = simulate({
      rates: ramp([10], 30),
      limit: 40,
      windowSeconds: 10,
      preUsed: { count: 40, openedMsBefore: 3000 },
    });
    const buckets = bucketSamples(samples);
    expect(buckets[0]).toMatchObject({ accepted: 0, limited: 10 });
    const estimate = detectLimit(buckets);
    expect(estimate).toMatchObject({ limited: true, firstLimitedSecond: 0, method: 'full-window' });
    expect(estimate.limitPerWindow).toBe(40);
    expect(estimate.windowSeconds).toBe(10);
  });

  it('counts the window that ended at the first reset when the run stops before the next refill', () => {
    // 60 per 10 s: the second window fills at 14 s, resets at 20 s; the ramp ends at 22 s, before
    // the third window is full.
    const samples = simulate({ rates: [...ramp([2, 8, 14, 20], 5), 20, 20], limit: 60, windowSeconds: 10 });
    const estimate = detectLimit(bucketSamples(samples), { windowSeconds: 10 });
    expect(estimate.method).toBe('reset-aligned');
    within(estimate.limitPerWindow, 60, 0.2);
    // Without the window's length there is no telling where it began: an upper bound only.
    const unknown = detectLimit(bucketSamples(samples));
    expect(unknown.method).toBe('before-first-429');
    expect(unknown.limitPerWindow).toBeGreaterThan(60);
  });

  it('falls back to what was accepted up to the first 429 when no reset is seen', () => {
    const samples = simulate({ rates: ramp([5, 10], 4), limit: 45, windowSeconds: 600 });
    const estimate = detectLimit(bucketSamples(samples), { windowSeconds: 600 });
    expect(estimate.method).toBe('before-first-429');
    expect(estimate.limitPerWindow).toBe(45);
    expect(estimate.ratePerSecond).toBe(0.08);
  });

  it('says limited but counts nothing when the run never leaves an exhausted window', () => {
    const samples = simulate({
      rates: ramp([5], 4),
      limit: 10,
      windowSeconds: 60,
      preUsed: { count: 10, openedMsBefore: 1000 },
    });
    const estimate = detectLimit(bucketSamples(samples));
    expect(estimate).toMatchObject({ limited: true, method: 'before-first-429', limitPerWindow: 0 });
  });

  it('reads unordered, sparse buckets as a dense run', () => {
    const buckets: Bucket[] = [
      { second: 3, accepted: 0, limited: 4 },
      { second: 0, accepted: 5, limited: 0 },
      { second: 2, accepted: 1, limited: 3 },
    ];
    expect(detectLimit(buckets)).toMatchObject({ firstLimitedSecond: 2, limitPerWindow: 6, onsetRate: 4 });
  });
});

describe('bucketsFromSummary', () => {
  it('reads the per-second sub-metrics k6 reports for the thresholds', () => {
    const metrics = {
      rate_limit_accepted: { values: { count: 9 } },
      'rate_limit_accepted{sec:0}': { values: { count: 4 } },
      'rate_limit_accepted{sec:1}': { values: { count: 5 } },
      'rate_limit_limited{sec:1}': { values: { count: 2 } },
      'rate_limit_limited{sec:2}': { values: { count: 0 } },
      'something_else{sec:1}': { values: { count: 100 } },
    };
    expect(
      bucketsFromSummary(metrics, { accepted: 'rate_limit_accepted', limited: 'rate_limit_limited' }),
    ).toEqual([
      { second: 0, accepted: 4, limited: 0 },
      { second: 1, accepted: 5, limited: 2 },
      { second: 2, accepted: 0, limited: 0 },
    ]);
  });
});

describe("detectLimit over the reference server's limiter", { timeout: 60_000 }, () => {
  const LIMIT = 50;
  const WINDOW = 100;
  /** One bucket is 10 s of the server's clock: real time spent per request is then negligible. */
  const BUCKET_MS = 10_000;
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ rateLimit: { limit: LIMIT, windowSeconds: WINDOW } });
  });
  afterAll(() => server?.close());

  it(`lands within 20 % of the configured ${LIMIT} per ${WINDOW} s`, async () => {
    const headers = {
      'x-api-key-id': server.credentials.apiKeyId,
      'x-api-key-secret': server.credentials.apiKeySecret,
    };
    // A stepped ramp in virtual time: the clock moves 1/rate of a bucket after every request, so
    // 400 s of ramp take a second or two; atMs is the server's clock (real time plus the jumps).
    const startedAt = Date.now();
    let movedMs = 0;
    const samples: Sample[] = [];
    for (const rate of ramp([2, 6, 10, 14], 10)) {
      for (let i = 0; i < rate; i++) {
        const atMs = Date.now() - startedAt + movedMs;
        const res = await fetch(`${server.apiBaseUrl}v1/customers`, { headers });
        await res.arrayBuffer();
        samples.push({ atMs, status: res.status });
        server.control.advanceClock(BUCKET_MS / 1000 / rate);
        movedMs += BUCKET_MS / rate;
      }
    }
    expect(samples.some((s) => s.status === 429)).toBe(true);
    const buckets = bucketSamples(samples, BUCKET_MS);
    const measured = detectLimit(buckets);
    within(measured.limitPerWindow, LIMIT, 0.2);
    // Lengths are in buckets here: 10 buckets of 10 s.
    within(measured.windowSeconds, WINDOW / 10, 0.2);
    const configured = detectLimit(buckets, { windowSeconds: WINDOW / 10 });
    within(configured.limitPerWindow, LIMIT, 0.2);
  });
});
