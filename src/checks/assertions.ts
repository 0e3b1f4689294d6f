// Assertions shared by the suites. Each fails with a failure object (failure.ts): a one-line
// message that says what the target did, what was expected, what came, and the target's text as a
// quote, so a report row explains itself without opening the evidence. The quote is never cut
// here: check() redacts the failure first, the sinks cut it.
import { errorCode as bodyErrorCode } from '../../common/error-body.ts';
import { isJsonMediaType } from '../../common/media-type.ts';
import { kindOfStatus } from '../../common/verdict-kind.ts';
import type { ApiResponse } from '../client/index.ts';
import type { ErrorBody, Unchecked, Validation } from '../contract/index.ts';
import { CheckFailed, type CheckFailure } from './failure.ts';

/** Fails with exactly the message (and what else it knows): the report reads as the target's behaviour. */
export function ensure(
  ok: boolean,
  message: string,
  about?: ApiResponse,
  details: Omit<CheckFailure, 'message'> = {},
): void {
  if (ok) return;
  throw new CheckFailed({ message, ...details }, about);
}

/**
 * Runs expectations about one response of several: a failure that names no response of its own
 * names this one, so the reports mark its exchange (not "which of the 9 exchanges failed is not
 * known").
 */
export async function about<T>(res: ApiResponse, expectations: () => T | Promise<T>): Promise<T> {
  try {
    return await expectations();
  } catch (error) {
    if (error instanceof CheckFailed && error.about === undefined) throw new CheckFailed(error.failure, res);
    throw error;
  }
}

/** The response a failed expectation named, if any. */
export function failedResponseOf(error: unknown): ApiResponse | undefined {
  return error instanceof CheckFailed ? (error.about as ApiResponse | undefined) : undefined;
}

export function isJsonContentType(res: ApiResponse): boolean {
  return isJsonMediaType(res.headers['content-type'] ?? '');
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
  ensure(ok, `${what}: expected ${label}, got ${describeResponse(res)}`, res, {
    expected: label,
    actual: describeResponse(res),
    // A class is the spec allowing several answers: any of them passes.
    ...(typeof expected === 'number' ? {} : { acceptable: [label] }),
    // A 5xx where it was not expected is a server failure, whatever the check asked.
    kind: kindOfStatus(res.status),
  });
}

export const is2xx = statusClass('2xx', (status) => status >= 200 && status < 300);
export const is4xx = statusClass('4xx', (status) => status >= 400 && status < 500);
/** Any answer of the target's choosing, but not a server failure (GNR-01). */
export const notServerError = statusClass('any status but a 5xx', (status) => status < 500);

export function expectJsonBody(res: ApiResponse, what: string): unknown {
  ensure(isJsonContentType(res), `${what}: expected a JSON content type, got ${describeResponse(res)}`, res);
  ensure(
    res.isJson,
    `${what}: expected a JSON body, got one that does not parse: ${describeResponse(res)}`,
    res,
  );
  return res.body;
}

export function expectValid(result: Validation, what: string, about?: ApiResponse): void {
  if (!result.valid) {
    ensure(false, `${what} does not match the schema`, about, {
      expected: 'the schema',
      // The validator's words name the target's keys and values: target text, quoted as such.
      quote: result.errors.slice(0, 5).join('; '),
    });
  }
}

/** The error body's fields as the document names them, each unknown until checked. */
export type ErrorBodyLike = Unchecked<ErrorBody>;

/** The minimum every refusal must carry: a JSON error body with its message. */
export function expectErrorBody(res: ApiResponse, what: string): ErrorBodyLike {
  const body = res.body;
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  ensure(isObject, `${what}: expected a JSON error body, got ${describeResponse(res)}`, res, {
    expected: 'a JSON error body',
    actual: describeResponse(res),
    quote: res.text,
  });
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

/** The error body's code (read as the k6 scripts read it: common/error-body.ts). */
export function errorCode(res: ApiResponse): string | undefined {
  return bodyErrorCode(res.body);
}

/** Whole-number mention, so "3" is not found inside "137". */
export function mentionsNumber(text: string, n: number): boolean {
  return new RegExp(`(^|\\D)${n}(\\D|$)`).test(text);
}
