// What the rate-limit probe concludes from its measurement: the verdicts, declared against
// observed, expectations, inconclusive runs; how it reads the limiter's headers; and how it judges
// one 429: the error body (malformed bodies), Retry-After (missing, malformed, both forms).
import { describe, expect, it } from 'vitest';
import { errorBodyProblems, errorCode, isSessionExpired, jsonBody } from '../../common/error-body.ts';
import { retryAfterSeconds } from '../../common/retry-after.ts';
import type { ProbeResult } from '../../load/lib/limit-probe.ts';
import { declaredFrom, NOTHING_DECLARED } from '../../load/lib/rate-headers.ts';
import { disagreements, rateLimitFindings } from '../../load/lib/rate-limit-findings.ts';
import { readRatePlan } from '../../load/lib/rate-plan.ts';

const WINDOW: ProbeResult = {
  limit: {
    limited: true,
    shape: 'window',
    burst: 30,
    limitPerWindow: 30,
    windowSeconds: 5.05,
    ratePerSecond: 5.94,
    method: 'burst after a refill',
    declared: {
      quota: 30,
      windowSeconds: 5,
      retryAfterSeconds: 5,
      sources: ['RateLimit-Policy', 'Retry-After'],
    },
    missing: [],
  },
  tally: {
    accepted: 61,
    limited: 120,
    serverErrors: 0,
    other: 0,
    otherStatuses: [],
    refusalStatuses: [],
    malformed429: 0,
    malformedReasons: [],
    retryAfterMin: 1,
    retryAfterMax: 5,
    afterRetryAfter: { honoured: 2, refused: 0 },
  },
  durationMs: 10_400,
};

const plan = readRatePlan({}, 'smoke');
const verdict = (findings: ReturnType<typeof rateLimitFindings>, start: string) =>
  findings.verdicts.find((v) => v.name.startsWith(start));
const tally = (over: Partial<ProbeResult['tally']>): ProbeResult => ({
  ...WINDOW,
  tally: { ...WINDOW.tally, ...over },
});
const limit = (over: Partial<ProbeResult['limit']>): ProbeResult => ({
  ...WINDOW,
  limit: { ...WINDOW.limit, ...over },
});

describe('rateLimitFindings', () => {
  it('passes a clean run and reports every figure in analysis.limit', () => {
    const findings = rateLimitFindings(WINDOW, plan);
    expect(findings.failed).toBe(false);
    expect(findings.inconclusive).toBeUndefined();
    expect(findings.verdicts.every((v) => v.ok === true)).toBe(true);
    expect(findings.analysis.limit).toMatchObject({
      burst: 30,
      ratePerSecond: 5.94,
      limitPerWindow: 30,
      windowSeconds: 5.05,
      method: 'burst after a refill',
      declared: { quota: 30, windowSeconds: 5 },
    });
    expect(findings.figures.find((f) => f.label === 'window')?.value).toBe('30 requests per 5.05 s');
  });

  it('fails on malformed 429s, 5xx, refusals after Retry-After, and a refusal other than 429', () => {
    expect(
      verdict(
        rateLimitFindings(tally({ malformed429: 3, malformedReasons: ['the body is not JSON'] }), plan),
        'every 429',
      ),
    ).toMatchObject({ ok: false, detail: '3 of 120 malformed: the body is not JSON' });
    expect(rateLimitFindings(tally({ serverErrors: 2 }), plan).failed).toBe(true);
    expect(
      verdict(
        rateLimitFindings(tally({ afterRetryAfter: { honoured: 0, refused: 4 } }), plan),
        'a request after',
      )?.ok,
    ).toBe(false);
    const fiveHundreds = rateLimitFindings(
      tally({ limited: 0, serverErrors: 50, refusalStatuses: [500] }),
      plan,
    );
    expect(verdict(fiveHundreds, 'a caller over the limit')).toMatchObject({
      ok: false,
      detail: 'refused with HTTP 500 instead of 429',
      // In the checks' vocabulary: a 5xx refusal is a server error of RATE-01, never inconclusive.
      rule: 'RATE-01',
      kind: 'server-error',
    });
  });

  it('finds declared and observed disagreeing by more than 20 %', () => {
    expect(disagreements(limit({ limitPerWindow: 20 }))).toEqual([
      'declared quota 30, measured 20 (-33.3 %)',
    ]);
    expect(disagreements(limit({ windowSeconds: 10 }))).toEqual([
      'declared window 5 s, measured 10 s (+100.0 %)',
    ]);
    expect(disagreements(limit({ limitPerWindow: 26 }))).toEqual([]);
    expect(rateLimitFindings(limit({ limitPerWindow: 20 }), plan).failed).toBe(true);
  });

  it('a declared quota far exceeded without a refusal fails (a limiter announced, not enforced)', () => {
    const result = {
      ...limit({
        limited: false,
        shape: 'unknown',
        burst: undefined,
        limitPerWindow: undefined,
        windowSeconds: undefined,
        ratePerSecond: undefined,
      }),
      tally: { ...WINDOW.tally, accepted: 110, limited: 0 },
    };
    const findings = rateLimitFindings(result, plan);
    expect(findings.failed).toBe(true);
    expect(verdict(findings, 'a caller over the limit')?.detail).toMatch(
      /declare a quota of 30, but 110 requests were accepted/,
    );
  });

  it('a starved burst (slower than twice the declared rate) that met no refusal: inconclusive, not failed', () => {
    const declared = { quota: 20, windowSeconds: 1, sources: ['RateLimit-Policy'] };
    const starved: ProbeResult = {
      ...WINDOW,
      limit: {
        limited: false,
        shape: 'unknown',
        method: 'no refusal after 100 requests in 4.1 s',
        declared,
        missing: ['burst', 'ratePerSecond'],
        timing: { pollLateMaxMs: 0, roundTripMaxMs: 0, batchMaxMs: 1200, firstBurstPerSecond: 24.4 },
      },
      tally: { ...WINDOW.tally, accepted: 100, limited: 0, afterRetryAfter: { honoured: 0, refused: 0 } },
    };
    const findings = rateLimitFindings(starved, plan);
    expect(findings.failed).toBe(false);
    expect(findings.inconclusive).toMatch(/sent only 24.4 req\/s, under the 40 req\/s/);
    // The same run at full pace is the rate-limit-missing fault: failed.
    const fast = {
      ...starved,
      limit: {
        ...starved.limit,
        timing: { pollLateMaxMs: 0, roundTripMaxMs: 0, batchMaxMs: 5, firstBurstPerSecond: 900 },
      },
    };
    expect(rateLimitFindings(fast, plan).failed).toBe(true);
  });

  it('a probe that could not tell the shape: inconclusive with its reason, the declared window not judged', () => {
    const blurred = limit({
      shape: 'unknown',
      burst: 38,
      windowSeconds: 1.21,
      limitPerWindow: 20,
      declared: { quota: 20, windowSeconds: 1, sources: ['RateLimit-Policy'] },
      cannotTell: 'the window 1.21 s is known only to ±0.3 s, more than 10 % of it',
    });
    const findings = rateLimitFindings(blurred, plan);
    expect(findings.failed).toBe(false);
    expect(findings.inconclusive).toMatch(/^cannot tell the limiter's shape: the window 1.21 s/);
    expect(verdict(findings, 'what the headers declare')?.ok).toBeNull();
    expect(findings.figures.find((f) => f.label === 'burst')?.value).toBe(
      'not measured (38 accepted before the first 429, no measure of the allowance when the timing cannot tell)',
    );
  });

  it('never met, nothing declared or expected: inconclusive, not passed', () => {
    const result: ProbeResult = {
      ...WINDOW,
      limit: {
        limited: false,
        shape: 'unknown',
        method: 'no refusal after 2000 requests in 1.7 s',
        declared: NOTHING_DECLARED,
        missing: ['burst', 'ratePerSecond'],
      },
      tally: { ...WINDOW.tally, accepted: 2000, limited: 0, afterRetryAfter: { honoured: 0, refused: 0 } },
    };
    const findings = rateLimitFindings(result, plan);
    expect(findings.failed).toBe(false);
    expect(findings.inconclusive).toBe('the limiter was never met: no refusal after 2000 requests in 1.7 s');
    expect(verdict(findings, 'a caller over the limit')?.ok).toBeNull();
  });

  it('a figure not pinned down within the budget makes the run inconclusive', () => {
    const findings = rateLimitFindings(
      limit({ windowSeconds: undefined, missing: ['windowSeconds: not pinned down'] }),
      plan,
    );
    expect(findings.inconclusive).toBe('not pinned down: windowSeconds: not pinned down');
  });

  it('compares with RATE_EXPECTED_BURST and RATE_EXPECTED_RATE when given', () => {
    const expecting = readRatePlan({ RATE_EXPECTED_BURST: '30', RATE_EXPECTED_RATE: '10' });
    const findings = rateLimitFindings(WINDOW, expecting);
    expect(verdict(findings, 'the limit is what')).toMatchObject({
      ok: false,
      detail: 'ratePerSecond: expected 10, measured 5.94 (-40.6 %)',
    });
  });
});

describe('reading what the headers declare', () => {
  const read = (headers: Record<string, string>, status = 200) =>
    declaredFrom(NOTHING_DECLARED, headers, status, 0);

  it('the IETF structured fields (RateLimit-Policy q/w, RateLimit r/t)', () => {
    expect(
      read({ 'RateLimit-Policy': '"per-credential";q=20;w=1', RateLimit: '"per-credential";r=19;t=1' }),
    ).toEqual({
      quota: 20,
      windowSeconds: 1,
      remaining: 19,
      resetSeconds: 1,
      sources: ['RateLimit-Policy', 'RateLimit'],
    });
  });

  it('the older drafts and X-RateLimit-* (reset as seconds or as a Unix time)', () => {
    expect(
      read({ 'RateLimit-Policy': '100;w=60', RateLimit: 'limit=100, remaining=5, reset=30' }),
    ).toMatchObject({ quota: 100, windowSeconds: 60, remaining: 5, resetSeconds: 30 });
    expect(
      read({ 'RateLimit-Limit': '50', 'RateLimit-Remaining': '3', 'RateLimit-Reset': '7' }),
    ).toMatchObject({ quota: 50, remaining: 3, resetSeconds: 7 });
    expect(
      declaredFrom(
        NOTHING_DECLARED,
        { 'X-RateLimit-Limit': '60', 'X-RateLimit-Reset': '1700000030' },
        200,
        1_700_000_000_000,
      ),
    ).toMatchObject({ quota: 60, resetSeconds: 30, sources: ['X-RateLimit-*'] });
  });

  it('Retry-After only on a 429, the longest kept', () => {
    let d = read({ 'Retry-After': '3' }, 200);
    expect(d.retryAfterSeconds).toBeUndefined();
    d = declaredFrom(d, { 'retry-after': '3' }, 429, 0);
    d = declaredFrom(d, { 'retry-after': '1' }, 429, 0);
    expect(d).toEqual({ retryAfterSeconds: 3, sources: ['Retry-After'] });
  });

  it('ignores what does not parse', () => {
    expect(read({ 'RateLimit-Policy': 'lots', 'X-RateLimit-Limit': 'many' })).toEqual({ sources: [] });
  });
});

describe('judging one 429', () => {
  const good = JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many requests', status_code: 429 });

  it('accepts the spec error body', () => {
    expect(errorBodyProblems(jsonBody(good), 429)).toEqual([]);
    expect(errorCode(jsonBody(good))).toBe('RATE_LIMITED');
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
    expect(errorBodyProblems(jsonBody(body), 429).join('; ')).toMatch(problem);
  });

  it('reads Retry-After as seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('-1', now)).toBeUndefined();
    expect(retryAfterSeconds('1.5', now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('2026-11-23T10:00:30Z', now)).toBeUndefined();
  });

  it('recognises SESSION_EXPIRED by its code', () => {
    expect(
      isSessionExpired(jsonBody(JSON.stringify({ code: 'SESSION_EXPIRED', message: 'm', status_code: 401 }))),
    ).toBe(true);
    expect(isSessionExpired(jsonBody(good))).toBe(false);
    expect(isSessionExpired(jsonBody(null))).toBe(false);
  });
});
