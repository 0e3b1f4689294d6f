// Assertions shared by the suites. Each fails with a one-line message that says what the target
// did, so a report row explains itself without opening the evidence.
import { expect } from 'vitest';
import type { ApiResponse } from '../client/index.ts';

type Validation = { valid: true } | { valid: false; errors: string[] };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Fails with exactly the message: the report's reason reads as the target's behaviour, nothing more. */
export function ensure(ok: boolean, message: string): void {
  if (!ok) expect.fail(message);
}

export function isJsonContentType(res: ApiResponse): boolean {
  return JSON_TYPE.test(res.headers['content-type'] ?? '');
}

export function describeResponse(res: ApiResponse): string {
  const type = res.headers['content-type'] ?? 'no content type';
  return `${res.status} (${type})`;
}

export function expectStatus(
  res: ApiResponse,
  expected: number | ((status: number) => boolean),
  what: string,
) {
  const ok = typeof expected === 'number' ? res.status === expected : expected(res.status);
  ensure(
    ok,
    `${what}: expected ${typeof expected === 'number' ? expected : 'another status'}, got ${describeResponse(res)}`,
  );
}

export const is2xx = (status: number) => status >= 200 && status < 300;
export const is4xx = (status: number) => status >= 400 && status < 500;

export function expectJsonBody(res: ApiResponse, what: string): unknown {
  ensure(isJsonContentType(res), `${what}: content type is not JSON: ${describeResponse(res)}`);
  ensure(res.isJson, `${what}: body is not valid JSON: ${describeResponse(res)}`);
  return res.body;
}

export function expectValid(result: Validation, what: string): void {
  if (!result.valid) {
    expect.fail(`${what} does not match the schema: ${result.errors.slice(0, 5).join('; ')}`);
  }
}

export interface ErrorBodyLike {
  id?: unknown;
  code?: unknown;
  message?: unknown;
  status_code?: unknown;
  timestamp?: unknown;
  path?: unknown;
  handled?: unknown;
  errors?: unknown;
}

/** The minimum every refusal must carry: a JSON error body with its message. */
export function expectErrorBody(res: ApiResponse, what: string): ErrorBodyLike {
  const body = res.body;
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  ensure(isObject, `${what}: no JSON error body (${describeResponse(res)}): ${res.text.slice(0, 120)}`);
  const error = body as ErrorBodyLike;
  expect(typeof error.message, `${what}: the error body has no message`).toBe('string');
  return error;
}

/** A refusal: a 4xx with the error body. */
export function expectRefusal(res: ApiResponse, what: string): ErrorBodyLike {
  expectStatus(res, is4xx, `${what} must be refused with a 4xx`);
  return expectErrorBody(res, what);
}

export function errorCode(res: ApiResponse): string | undefined {
  const body = res.body as ErrorBodyLike | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

/** Whole-number mention, so "3" is not found inside "137". */
export function mentionsNumber(text: string, n: number): boolean {
  return new RegExp(`(^|\\D)${n}(\\D|$)`).test(text);
}
