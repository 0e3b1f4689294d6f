// Whose error a failure is: the target's (a broken expectation, no answer, no token), a server
// error, or the suite's own. The suite's own error is never blamed on the target (the run exits 2);
// a 5xx is never inconclusive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../../src/checks/define.ts';
import { CheckFailed } from '../../src/checks/failure.ts';
import { serverFailureOf } from '../../src/checks/server-failure.ts';
import { TokenError, TransportError } from '../../src/client/index.ts';
import { runProperty } from '../../src/generate/property.ts';
import { FIXTURE_CHECKS, fixtureResults } from '../report/fixture.ts';

describe('failureOf', () => {
  it("calls the client's errors the target's, and anything else the suite's own", () => {
    expect(failureOf(new CheckFailed({ message: 'page 2: expected 200' })).kind).toBeUndefined();
    expect(failureOf(new TransportError('reset', 'socket hang up'))).toEqual({ message: 'socket hang up' });
    expect(failureOf(new TokenError('token request failed', 500)).kind).toBeUndefined();
    const ours = failureOf(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(ours.kind).toBe('suite-error');
    expect(ours.message).toMatch(/^the suite's own error, not the target's: Cannot read/);
  });
});

describe('a run with a check that stopped on the suite’s own error', () => {
  it('exits 2 and names the check, whatever else passed', () => {
    const [first, ...rest] = FIXTURE_CHECKS;
    const broken = {
      ...(first as (typeof FIXTURE_CHECKS)[number]),
      status: 'failed' as const,
      failure: { kind: 'suite-error' as const, message: "the suite's own error, not the target's: boom" },
    };
    const results = fixtureResults({
      checks: [broken, ...rest.map((c) => ({ ...c, status: 'passed' as const }))],
    });
    expect(results.exitCode).toBe(2);
    expect(results.problems.join('\n')).toContain(`${broken.id} stopped on the suite's own error`);
  });
});

describe('serverFailureOf', () => {
  it('is every 5xx but the 503 FEATURE_FLAG_DISABLED', () => {
    expect(serverFailureOf({ status: 500, responseBody: '' })).toMatch(/HTTP 500, a server error/);
    expect(serverFailureOf({ status: 502 })).toBeDefined();
    expect(serverFailureOf({ status: 503, responseBody: '{"code":"RATE_LIMITED"}' })).toBeDefined();
    expect(
      serverFailureOf({ status: 503, responseBody: '{"code":"FEATURE_FLAG_DISABLED"}' }),
    ).toBeUndefined();
    expect(serverFailureOf({ status: 499 })).toBeUndefined();
    expect(serverFailureOf({})).toBeUndefined();
  });
});

describe('a generated probe that throws', () => {
  it('is not shrunk and not blamed on the target: the error goes up as it was, after one request', async () => {
    let probes = 0;
    const run = runProperty(
      fc.integer({ min: 0, max: 10_000 }),
      async (n) => {
        probes++;
        if (n > 5) throw new TypeError('a defect of the suite');
        return { verdict: { kind: 'pass' as const }, request: n };
      },
      { seed: 1, numRuns: 100, shrinkRequests: 200 },
    );
    await expect(run).rejects.toThrow('a defect of the suite');
    expect(probes).toBeLessThan(10);
  });
});
