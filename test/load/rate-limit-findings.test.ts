// What the rate-limit probe concludes from its counters, and how it judges one 429: the error body
// (malformed bodies), Retry-After (missing, malformed, both forms), and 5xx under load.
import { describe, expect, it } from 'vitest';
import { errorBodyProblems, errorCode, isSessionExpired } from '../../load/lib/error-body.ts';
import type { LimitEstimate } from '../../load/lib/limit-detection.ts';
import { describeLimit, limitDeviation, rateLimitFindings } from '../../load/lib/rate-limit-findings.ts';
import { readRatePlan } from '../../load/lib/rate-plan.ts';
import { parseRetryAfter } from '../../load/lib/retry-after.ts';
import type { K6Metric } from '../../load/lib/summary/k6-data.ts';

const counter = (count: number): K6Metric => ({ type: 'counter', values: { count, rate: count / 10 } });

const FOUND: LimitEstimate = {
  limited: true,
  method: 'full-window',
  firstLimitedSecond: 7,
  onsetRate: 17,
  limitPerWindow: 30,
  windowSeconds: 5,
  windowSource: 'configured',
  ratePerSecond: 6,
  maxAcceptedPerSecond: 15,
};

function metrics(overrides: Record<string, number> = {}): Record<string, K6Metric> {
  const counts = {
    rate_limit_accepted: 89,
    rate_limit_limited: 67,
    rate_limit_malformed_429: 0,
    rate_limit_5xx: 0,
    rate_limit_other_status: 0,
    rate_limit_recovery_ok: 1,
    rate_limit_recovery_failures: 0,
    ...overrides,
  };
  return {
    ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, counter(v)])),
    rate_limit_onset_rps: { type: 'trend', values: { min: 16.7, max: 24, count: 67 } },
    rate_limit_retry_after_s: { type: 'trend', values: { min: 1, max: 4, count: 68 } },
  };
}

const plan = readRatePlan({ RATE_START: '2', RATE_CEILING: '24', RATE_STEPS: '4', RATE_STEP_DURATION: '3s' });
const verdict = (findings: ReturnType<typeof rateLimitFindings>, start: string) =>
  findings.verdicts.find((v) => v.name.startsWith(start));

describe('rateLimitFindings', () => {
  it('passes a clean run and reports the observed limit and where 429s begin', () => {
    const findings = rateLimitFindings(FOUND, metrics(), plan);
    expect(findings.verdicts.every((v) => v.ok === true)).toBe(true);
    const figure = (label: string) => findings.figures.find((f) => f.label === label)?.value;
    expect(figure('observed limit')).toBe(
      '30 requests per 5 s window (configured), about 6 req/s, counted over one whole window between two resets',
    );
    expect(figure('429s begin')).toBe(
      '7 s into the ramp, at 16.7 req/s offered (17 requests sent in that second)',
    );
    expect(figure('Retry-After')).toBe('1 s to 4 s');
    expect(findings.analysis).toEqual({ limit: FOUND });
  });

  it('fails on malformed 429s (bad body or missing Retry-After)', () => {
    const found = verdict(
      rateLimitFindings(FOUND, metrics({ rate_limit_malformed_429: 3 }), plan),
      'every 429',
    );
    expect(found).toMatchObject({ ok: false, detail: '3 malformed 429 answer(s)' });
  });

  it('fails on 5xx under load', () => {
    const found = verdict(rateLimitFindings(FOUND, metrics({ rate_limit_5xx: 2 }), plan), 'no 5xx');
    expect(found).toMatchObject({ ok: false, detail: '2 answers 5xx or none' });
  });

  it('fails when the request after waiting Retry-After is refused', () => {
    const found = verdict(
      rateLimitFindings(FOUND, metrics({ rate_limit_recovery_ok: 0, rate_limit_recovery_failures: 1 }), plan),
      'a request after',
    );
    expect(found?.ok).toBe(false);
  });

  it('cannot decide anything about 429s when the ramp never met the limiter', () => {
    const none: LimitEstimate = { limited: false, method: 'none', maxAcceptedPerSecond: 24 };
    const findings = rateLimitFindings(
      none,
      metrics({ rate_limit_limited: 0, rate_limit_recovery_ok: 0 }),
      plan,
    );
    expect(verdict(findings, 'the limiter')).toMatchObject({
      ok: null,
      detail: expect.stringMatching(/raise RATE_CEILING/),
    });
    expect(verdict(findings, 'every 429')?.ok).toBeNull();
    expect(verdict(findings, 'a request after')?.ok).toBeNull();
    expect(findings.figures.find((f) => f.label === '429s begin')?.value).toBe('no 429 up to 24 req/s');
  });

  it('compares with RATE_EXPECTED_LIMIT when given', () => {
    const withExpected = readRatePlan({ RATE_EXPECTED_LIMIT: '25' });
    const findings = rateLimitFindings(FOUND, metrics(), withExpected);
    expect(findings.figures.find((f) => f.label === 'expected limit')?.value).toBe(
      '25 requests per window (RATE_EXPECTED_LIMIT): observed +20.0 %',
    );
    expect(findings.analysis).toMatchObject({ expectedLimit: 25, deviation: 0.2 });
    expect(limitDeviation(FOUND, undefined)).toBeUndefined();
    expect(limitDeviation({ ...FOUND, limitPerWindow: 27 }, 30)).toBe(-0.1);
  });

  it('says how the limit was counted', () => {
    expect(describeLimit(FOUND)).toMatch(/one whole window between two resets$/);
    expect(describeLimit({ ...FOUND, method: 'reset-aligned' })).toMatch(
      /window that ended at the first reset$/,
    );
    expect(describeLimit({ limited: false, method: 'none', maxAcceptedPerSecond: 3 })).toBe('not reached');
  });

  it('notes that a limit counted up to the first 429 is an upper bound', () => {
    const early: LimitEstimate = { ...FOUND, method: 'before-first-429', windowSeconds: undefined };
    delete early.windowSeconds;
    expect(describeLimit(early)).toMatch(/window length not measured.*up to the first 429/);
    expect(rateLimitFindings(early, metrics(), plan).notes[0]).toMatch(/upper bound/);
  });
});

describe('judging one 429', () => {
  const good = JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many requests', status_code: 429 });

  it('accepts the spec error body', () => {
    expect(errorBodyProblems(good, 429)).toEqual([]);
    expect(errorCode(good)).toBe('RATE_LIMITED');
  });

  it.each([
    ['not JSON', '<html>slow down</html>', /not JSON/],
    ['empty', '', /not JSON/],
    ['an array', '[]', /not a JSON object/],
    ['no code', JSON.stringify({ message: 'x', status_code: 429 }), /code is missing/],
    ['no message', JSON.stringify({ code: 'X', status_code: 429 }), /message is missing/],
    [
      'wrong status_code',
      JSON.stringify({ code: 'X', message: 'y', status_code: 503 }),
      /status_code is 503, not 429/,
    ],
  ])('names the problem of a malformed body (%s)', (_, body, problem) => {
    expect(errorBodyProblems(body, 429).join('; ')).toMatch(problem);
  });

  it('reads Retry-After as seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('2026-11-23T10:00:30Z', now)).toBeUndefined();
  });

  it('recognises SESSION_EXPIRED by its code', () => {
    expect(
      isSessionExpired(JSON.stringify({ code: 'SESSION_EXPIRED', message: 'm', status_code: 401 })),
    ).toBe(true);
    expect(isSessionExpired(good)).toBe(false);
    expect(isSessionExpired(null)).toBe(false);
  });
});
