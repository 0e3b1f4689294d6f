// Failures in plain words: vitest's matcher wording becomes "expected X, got Y", a status class
// names itself, and the response a failed expectation was about travels with the error.
import { describe, expect, it } from 'vitest';
import {
  expectErrorBody,
  expectStatus,
  failedResponseOf,
  is2xx,
  is4xx,
  plainExpectation,
} from '../../src/checks/assertions.ts';
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

describe('plainExpectation', () => {
  it.each([
    ['total_pages: expected 3 to be 2 // Object.is equality', 'total_pages: expected 2, got 3'],
    ['flags: expected { a: 1 } to deeply equal { a: 2 }', 'flags: expected { a: 2 }, got { a: 1 }'],
    [
      'Retry-After header: expected undefined to be defined',
      'Retry-After header: expected a value, got none',
    ],
    ["token: expected 'abc' to be undefined", "token: expected none, got 'abc'"],
    ['pets: expected 120 to be less than or equal to 100', 'pets: expected at most 100, got 120'],
    ['items: expected 0 to be greater than 0', 'items: expected more than 0, got 0'],
    [
      "code: expected undefined to be type of 'object'",
      "code: expected a value of type 'object', got undefined",
    ],
    [
      'GET /v1/customers: expected 2xx, got 404 (application/json)',
      'GET /v1/customers: expected 2xx, got 404 (application/json)',
    ],
    ['something else entirely', 'something else entirely'],
  ])('%s', (from, to) => {
    expect(plainExpectation(from)).toBe(to);
    expect(plainExpectation(from)).not.toContain('Object.is');
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

  it('an error body without a message says what it expected', () => {
    const error = failureOf(() => expectErrorBody(response(400, { code: 'X' }), 'GET /v1/x'));
    expect(error.message).toBe('GET /v1/x: expected a message (string) in the error body, got undefined');
  });
});
