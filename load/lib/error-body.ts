// The spec's error body, as far as a load script checks it: code and message are strings and
// status_code equals the HTTP status. Pure.

/** Problems with an error response body (empty when it is a proper error body). */
export function errorBodyProblems(body: unknown, status: number): string[] {
  const parsed = parseJson(body);
  if (parsed === undefined) return ['the body is not JSON'];
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return ['the body is not a JSON object'];
  const fields = parsed as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof fields.code !== 'string' || fields.code === '') problems.push('code is missing or not a string');
  if (typeof fields.message !== 'string' || fields.message === '')
    problems.push('message is missing or not a string');
  if (fields.status_code !== status)
    problems.push(`status_code is ${String(fields.status_code)}, not ${status}`);
  return problems;
}

/** The error body's code, or undefined (not JSON, no code). */
export function errorCode(body: unknown): string | undefined {
  const parsed = parseJson(body);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const code = (parsed as Record<string, unknown>).code;
  return typeof code === 'string' ? code : undefined;
}

/** SESSION_EXPIRED is recognised by the body's code whatever the status (the spec does not show it). */
export function isSessionExpired(body: unknown): boolean {
  return errorCode(body) === 'SESSION_EXPIRED';
}

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
