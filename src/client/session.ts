// SESSION_EXPIRED is recognised by the error body's code: the spec does not show its HTTP status.
// The predicate lives once, k6-safe, in common/error-body.ts: the k6 scripts renew on it too.
import { isSessionExpired as bodyIsSessionExpired, SESSION_EXPIRED } from '../../common/error-body.ts';
import type { ApiResponse } from './types.ts';

export { SESSION_EXPIRED };

export function isSessionExpired(res: ApiResponse): boolean {
  return res.isJson && bodyIsSessionExpired(res.body);
}
