// SESSION_EXPIRED is recognised by the error body's code: the spec does not show its HTTP status.
import type { ApiResponse } from './types.ts';

export const SESSION_EXPIRED = 'SESSION_EXPIRED';

export function isSessionExpired(res: ApiResponse): boolean {
  const body = res.body;
  return (
    res.isJson &&
    typeof body === 'object' &&
    body !== null &&
    (body as { code?: unknown }).code === SESSION_EXPIRED
  );
}
