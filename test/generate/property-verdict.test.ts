// The property runner (stops at a violation, shrinks within its request cap, counts what proved
// nothing) and the verdicts (a 5xx is never allowed; 429 and a disabled feature prove nothing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/client/index.ts';
import { findOperation } from '../../src/contract/index.ts';
import { runProperty } from '../../src/generate/property.ts';
import { judgeInvalid, judgeReadBack, judgeValid, type Verdict } from '../../src/generate/verdict.ts';

const violation = (message: string): Verdict => ({ kind: 'violation', rule: 'GNR-01', message });

describe('runProperty', () => {
  it('shrinks a failure to the smallest failing value', async () => {
    const outcome = await runProperty(
      fc.integer({ min: 0, max: 10_000 }),
      async (n) => ({ verdict: n >= 37 ? violation(`n=${n}`) : { kind: 'pass' }, request: n }),
      { seed: 1, numRuns: 100, shrinkRequests: 200 },
    );
    expect(outcome.failure?.request).toBe(37);
    expect(outcome.failure?.shrinks).toBeGreaterThan(0);
  });

  it('stops shrinking after its request cap, keeping the smallest failure found', async () => {
    let probes = 0;
    const outcome = await runProperty(
      fc.integer({ min: 0, max: 10_000 }),
      async (n) => {
        probes++;
        return { verdict: n >= 37 ? violation(`n=${n}`) : { kind: 'pass' }, request: n };
      },
      { seed: 1, numRuns: 100, shrinkRequests: 2 },
    );
    expect(outcome.failure?.request).toBeGreaterThanOrEqual(37);
    expect(probes - outcome.passed - outcome.inconclusive.length).toBeLessThanOrEqual(3);
  });

  it('inconclusive probes are counted apart, never as passed', async () => {
    const outcome = await runProperty(
      fc.integer(),
      async (n) => ({ verdict: { kind: 'inconclusive', reason: '429' }, request: n }),
      { seed: 1, numRuns: 5, shrinkRequests: 5 },
    );
    expect(outcome).toMatchObject({
      passed: 0,
      probes: 5,
      inconclusive: ['429', '429', '429', '429', '429'],
    });
    expect(outcome.failure).toBeUndefined();
  });

  it('the same seed replays the same failure', async () => {
    const once = () =>
      runProperty(
        fc.record({ a: fc.string(), b: fc.nat() }),
        async (v) => ({
          verdict: v.b > 500 && v.a.length > 0 ? violation('x') : { kind: 'pass' },
          request: v,
        }),
        { seed: 12345, numRuns: 200, shrinkRequests: 50 },
      );
    const [first, second] = [await once(), await once()];
    expect(first.failure).toBeDefined();
    expect(second.failure).toEqual(first.failure);
  });
});

const answer = (status: number, body?: unknown, type = 'application/json'): ApiResponse => ({
  status,
  headers: body === undefined ? {} : { 'content-type': type },
  text: body === undefined ? '' : JSON.stringify(body),
  body,
  isJson: body !== undefined,
  url: 'http://x/',
  durationMs: 1,
});

const errorBody = (status: number, code = 'VALIDATION_ERROR') => ({
  code,
  message: 'm',
  status_code: status,
  timestamp: '2026-01-01T00:00:00Z',
  path: '/api/v1/customers',
  handled: true,
  errors: [],
});

describe('verdicts', () => {
  const customers = findOperation('listCustomers');
  const pets = findOperation('listPets');

  it('a 5xx is a GNR-01 violation, valid or invalid; 503 FEATURE_FLAG_DISABLED is the exception', () => {
    expect(
      judgeValid(customers, { kind: 'success' }, answer(500, errorBody(500, 'INTERNAL_ERROR'))),
    ).toMatchObject({
      kind: 'violation',
      rule: 'GNR-01',
    });
    expect(judgeInvalid(pets, { kind: 'tolerate', why: '' }, answer(502))).toMatchObject({ rule: 'GNR-01' });
    expect(
      judgeValid(customers, { kind: 'success' }, answer(503, errorBody(503, 'FEATURE_FLAG_DISABLED'))),
    ).toMatchObject({
      kind: 'inconclusive',
    });
    expect(
      judgeInvalid(customers, { kind: 'refuse' }, answer(429, errorBody(429, 'RATE_LIMITED'))),
    ).toMatchObject({
      kind: 'inconclusive',
    });
  });

  it('an invalid request that is accepted breaks GNR-03; a tolerated one must still match the schema', () => {
    expect(judgeInvalid(pets, { kind: 'refuse' }, answer(200, []))).toMatchObject({ rule: 'GNR-03' });
    expect(judgeInvalid(pets, { kind: 'tolerate', why: '' }, answer(200, []))).toEqual({ kind: 'pass' });
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ id: i + 1, name: 'x' }));
    expect(judgeInvalid(pets, { kind: 'tolerate', why: '' }, answer(200, tooMany))).toMatchObject({
      rule: 'GNR-03',
    });
  });

  it('a main-service refusal needs its error body; the demo interface does not show one', () => {
    expect(judgeInvalid(customers, { kind: 'refuse' }, answer(400, { oops: true }))).toMatchObject({
      rule: 'GNR-03',
    });
    expect(judgeInvalid(customers, { kind: 'refuse' }, answer(400, errorBody(400)))).toEqual({
      kind: 'pass',
    });
    expect(judgeInvalid(pets, { kind: 'refuse' }, answer(400))).toEqual({ kind: 'pass' });
  });

  it('a valid request refused breaks GNR-02, unless the spec allows the refusal', () => {
    expect(judgeValid(customers, { kind: 'success' }, answer(400, errorBody(400)))).toMatchObject({
      rule: 'GNR-02',
    });
    expect(judgeValid(customers, { kind: 'refusal', why: 'beyond' }, answer(422, errorBody(422)))).toEqual({
      kind: 'pass',
    });
    expect(judgeValid(customers, { kind: 'refusal', why: 'beyond' }, answer(200, {}))).toMatchObject({
      rule: 'GNR-02',
    });
  });

  it('a read-back that differs breaks GNR-04', () => {
    expect(judgeReadBack({ id: 1, tag: 'cat' }, answer(200, { id: 1, name: 'a' }))).toMatchObject({
      rule: 'GNR-04',
    });
    expect(judgeReadBack({ id: 1, tag: 'cat' }, answer(200, { id: 1, tag: 'cat', name: 'a' }))).toEqual({
      kind: 'pass',
    });
  });
});
