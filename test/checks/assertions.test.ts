// Failures in plain words, as data: the suites' matchers fail with "what: expected X, got Y" made
// from the matcher, its argument and the value (never parsed out of vitest's message), values
// whole; a status class names itself; the response a failed expectation was about travels with it.
import { describe, expect, it } from 'vitest';
import {
  expectErrorBody,
  expectStatus,
  failedResponseOf,
  is2xx,
  is4xx,
} from '../../src/checks/assertions.ts';
import { expect as checkExpect } from '../../src/checks/expect.ts';
import { CheckFailed } from '../../src/checks/failure.ts';
import type { ApiResponse } from '../../src/client/index.ts';

function response(status: number, body: unknown = {}): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
    isJson: true,
    url: 'http://127.0.0.1:1/api/v1/customers',
    durationMs: 1,
  };
}

function failureOf(run: () => void): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('no failure');
}

describe("the suites' expect", () => {
  const long = `${'x'.repeat(60)}-secret-at-the-end`;
  it.each([
    [() => checkExpect(3, 'total_pages').toBe(2), 'total_pages: expected 2, got 3'],
    [() => checkExpect({ a: 1 }, 'flags').toEqual({ a: 2 }), 'flags: expected {"a":2}, got {"a":1}'],
    [
      () => checkExpect({ a: 1 }, 'flags').not.toEqual({ a: 1 }),
      'flags: expected a change from {"a":1}, got {"a":1}',
    ],
    [
      () => checkExpect(undefined, 'Retry-After header').toBeDefined(),
      'Retry-After header: expected a value, got undefined',
    ],
    [() => checkExpect('abc', 'token').toBeUndefined(), 'token: expected none, got "abc"'],
    [() => checkExpect(120, 'pets').toBeLessThanOrEqual(100), 'pets: expected at most 100, got 120'],
    [() => checkExpect(0, 'items').toBeGreaterThan(0), 'items: expected more than 0, got 0'],
    [
      () => checkExpect(undefined, 'code').toBeTypeOf('object'),
      'code: expected a value of type "object", got undefined',
    ],
    [() => checkExpect('SESSION', 'code').toBe(long), `code: expected "${long}", got "SESSION"`],
    [() => checkExpect.fail('watched: failed'), 'watched: failed'],
  ])('%#: %s', (run, message) => {
    const error = failureOf(run);
    expect(error).toBeInstanceOf(CheckFailed);
    // Whole: a value is never cut before check() redacts it.
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('Object.is');
  });

  it('passes what passes, and lets other errors through', () => {
    expect(() => checkExpect(2, 'n').toBe(2)).not.toThrow();
    expect(() => checkExpect([1, 2], 'list').toContain(2)).not.toThrow();
    expect(() => checkExpect(2, 'n').not.toBe(3)).not.toThrow();
  });
});

describe('expectStatus', () => {
  it('names the status class it expected and carries the response', () => {
    const res = response(404);
    const error = failureOf(() => expectStatus(res, is2xx, 'GET /v1/customers'));
    expect(error.message).toBe('GET /v1/customers: expected 2xx, got 404 (application/json)');
    expect(failedResponseOf(error)).toBe(res);
    expect(failureOf(() => expectStatus(response(500), is4xx, 'x')).message).toBe(
      'x: expected 4xx, got 500 (application/json)',
    );
    expect(failureOf(() => expectStatus(response(200), 201, 'POST /pets')).message).toBe(
      'POST /pets: expected 201, got 200 (application/json)',
    );
    expect(() => expectStatus(response(204), is2xx, 'ok')).not.toThrow();
  });

  it('a failure is data: expected, actual, and the acceptable answers where a class allows several', () => {
    const classed = failureOf(() => expectStatus(response(500), is4xx, 'x')) as CheckFailed;
    expect(classed.failure).toEqual({
      message: 'x: expected 4xx, got 500 (application/json)',
      expected: '4xx',
      actual: '500 (application/json)',
      acceptable: ['4xx'],
      kind: 'server-error',
    });
    const exact = failureOf(() => expectStatus(response(200), 201, 'POST /pets')) as CheckFailed;
    expect(exact.failure.acceptable).toBeUndefined();
    expect(exact.failure.kind).toBe('status');
  });

  it('an error body without a message says what it expected', () => {
    const error = failureOf(() => expectErrorBody(response(400, { code: 'X' }), 'GET /v1/x'));
    expect(error.message).toBe('GET /v1/x: expected a message (string) in the error body, got undefined');
  });
});
