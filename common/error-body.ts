// The spec's error body as both sides of the k6 boundary read it: its code (SESSION_EXPIRED
// included) and, for the load scripts, its minimum shape. The functions take the parsed JSON (the
// suite's ApiResponse.body); k6's text bodies go through jsonBody first. k6-safe: no imports.

/** The code that asks for a new token, recognised whatever the status (the spec does not show it). */
export const SESSION_EXPIRED = 'SESSION_EXPIRED';

/** k6 gives the body as text (or null, or an ArrayBuffer): the parsed JSON, or undefined when it is not JSON. */
export function jsonBody(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Problems with an error body (empty when code and message are strings and status_code is the status). */
export function errorBodyProblems(json: unknown, status: number): string[] {
  if (json === undefined) return ['the body is not JSON'];
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return ['the body is not a JSON object'];
  const fields = json as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof fields.code !== 'string' || fields.code === '') problems.push('code is missing or not a string');
  if (typeof fields.message !== 'string' || fields.message === '')
    problems.push('message is missing or not a string');
  if (fields.status_code !== status)
    problems.push(`status_code is ${String(fields.status_code)}, not ${status}`);
  return problems;
}

/** The error body's code, or undefined (not an object, no string code). */
export function errorCode(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const code = (json as Record<string, unknown>).code;
  return typeof code === 'string' ? code : undefined;
}

export function isSessionExpired(json: unknown): boolean {
  return errorCode(json) === SESSION_EXPIRED;
}
