// Assertions shared by the suites. Each fails with a one-line message that says what the target
// did, so a report row explains itself without opening the evidence.
import { expect } from 'vitest';
import { errorCode as bodyErrorCode } from '../../load/lib/shared/error-body.ts';
import type { ApiResponse } from '../client/index.ts';
import type { ErrorBody, Unchecked, Validation } from '../contract/index.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** The response a failed expectation was about, carried on the error so the report marks its exchange. */
export const FAILED_RESPONSE = Symbol('failedResponse');

/** Fails with exactly the message: the report's reason reads as the target's behaviour, nothing more. */
export function ensure(ok: boolean, message: string, about?: ApiResponse): void {
  if (ok) return;
  try {
    expect.fail(message);
  } catch (error) {
    if (about && error && typeof error === 'object') Object.assign(error, { [FAILED_RESPONSE]: about });
    throw error;
  }
}

/** The response a failed expectation named, if any. */
export function failedResponseOf(error: unknown): ApiResponse | undefined {
  return error && typeof error === 'object'
    ? ((error as Record<symbol, unknown>)[FAILED_RESPONSE] as ApiResponse | undefined)
    : undefined;
}

// vitest's wording of its matchers, in the words a person reads in a report: what was expected,
// then what the target gave. Each pattern gets the matcher's text after "expected ".
const PLAIN: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^(.*) to be (.*?) \/\/ Object\.is equality$/s, (m) => `expected ${m[2]}, got ${m[1]}`],
  [/^(.*) to (?:deeply |strictly )?equal (.*)$/s, (m) => `expected ${m[2]}, got ${m[1]}`],
  [/^(.*) not to (?:deeply |strictly )?equal (.*)$/s, (m) => `expected a change from ${m[2]}, got the same`],
  [/^(.*) to be defined$/s, () => 'expected a value, got none'],
  [/^(.*) to be undefined$/s, (m) => `expected none, got ${m[1]}`],
  [/^(.*) to not be undefined$/s, () => 'expected a value, got none'],
  [/^(.*) to be type of (.*)$/s, (m) => `expected a value of type ${m[2]}, got ${m[1]}`],
  [/^(.*) to be less than or equal to (.*)$/s, (m) => `expected at most ${m[2]}, got ${m[1]}`],
  [/^(.*) to be greater than or equal to (.*)$/s, (m) => `expected at least ${m[2]}, got ${m[1]}`],
  [/^(.*) to be greater than (.*)$/s, (m) => `expected more than ${m[2]}, got ${m[1]}`],
  [/^(.*) to be less than (.*)$/s, (m) => `expected less than ${m[2]}, got ${m[1]}`],
  [/^(.*) to be (.*)$/s, (m) => `expected ${m[2]}, got ${m[1]}`],
];

/** A matcher's message in plain words: "total_pages: expected 3, got 2", never "Object.is equality". */
export function plainExpectation(message: string): string {
  const at = message.lastIndexOf('expected ');
  if (at < 0) return message;
  const head = message.slice(0, at);
  const rest = message.slice(at + 'expected '.length);
  // Our own messages already read "expected X, got Y"; only vitest's matcher wording is rewritten.
  if (/, got /.test(rest)) return message;
  for (const [pattern, say] of PLAIN) {
    const m = pattern.exec(rest);
    if (m) return `${head}${say(m)}`;
  }
  return message;
}

export function isJsonContentType(res: ApiResponse): boolean {
  return JSON_TYPE.test(res.headers['content-type'] ?? '');
}

export function describeResponse(res: ApiResponse): string {
  const type = res.headers['content-type'] ?? 'no content type';
  return `${res.status} (${type})`;
}

/** A status class that says what it accepts ("2xx"), so a failure reads "expected 2xx, got 404". */
export interface StatusClass {
  (status: number): boolean;
  readonly label: string;
}

function statusClass(label: string, test: (status: number) => boolean): StatusClass {
  return Object.assign((status: number) => test(status), { label });
}

export function expectStatus(res: ApiResponse, expected: number | StatusClass, what: string) {
  const ok = typeof expected === 'number' ? res.status === expected : expected(res.status);
  const label = typeof expected === 'number' ? String(expected) : expected.label;
  ensure(ok, `${what}: expected ${label}, got ${describeResponse(res)}`, res);
}

export const is2xx = statusClass('2xx', (status) => status >= 200 && status < 300);
export const is4xx = statusClass('4xx', (status) => status >= 400 && status < 500);

export function expectJsonBody(res: ApiResponse, what: string): unknown {
  ensure(isJsonContentType(res), `${what}: expected a JSON content type, got ${describeResponse(res)}`, res);
  ensure(
    res.isJson,
    `${what}: expected a JSON body, got one that does not parse: ${describeResponse(res)}`,
    res,
  );
  return res.body;
}

export function expectValid(result: Validation, what: string): void {
  if (!result.valid) {
    expect.fail(`${what} does not match the schema: ${result.errors.slice(0, 5).join('; ')}`);
  }
}

/** The error body's fields as the document names them, each unknown until checked. */
export type ErrorBodyLike = Unchecked<ErrorBody>;

/** The minimum every refusal must carry: a JSON error body with its message. */
export function expectErrorBody(res: ApiResponse, what: string): ErrorBodyLike {
  const body = res.body;
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  ensure(
    isObject,
    `${what}: expected a JSON error body, got ${describeResponse(res)}: ${res.text.slice(0, 120)}`,
    res,
  );
  const error = body as ErrorBodyLike;
  ensure(
    typeof error.message === 'string',
    `${what}: expected a message (string) in the error body, got ${typeof error.message}`,
    res,
  );
  return error;
}

/** A refusal: a 4xx with the error body. */
export function expectRefusal(res: ApiResponse, what: string): ErrorBodyLike {
  expectStatus(res, is4xx, `${what} must be refused with a 4xx`);
  return expectErrorBody(res, what);
}

/** The error body's code (read as the k6 scripts read it: load/lib/shared/error-body.ts). */
export function errorCode(res: ApiResponse): string | undefined {
  return bodyErrorCode(res.body);
}

/** Whole-number mention, so "3" is not found inside "137". */
export function mentionsNumber(text: string, n: number): boolean {
  return new RegExp(`(^|\\D)${n}(\\D|$)`).test(text);
}
