// One bearer token per virtual user, renewed on SESSION_EXPIRED: the request is repeated once
// with a new token, and a second SESSION_EXPIRED for the same request is final (the spec's rule).
// The request reads what it needs through the bounded read (load/lib/k6/http.ts readBounded): an
// error answer (4xx other than 429, or 5xx: the spec does not show the status of SESSION_EXPIRED)
// is read only when it declared a readable size; otherwise its code is unknown and it is taken as
// it came (counted as not read, with no renewal). A success, most answers, is never read whole.
// Pure: the token request and the HTTP call are passed in, so vitest tests the logic in Node and
// k6 gives it k6/http (each k6 VU has its own JS runtime, so no cross-VU sharing is needed).
import { isSessionExpired, jsonBody } from '../../common/error-body.ts';

export interface BodyResponse {
  status: number;
  /** The body when it was read (a string), else null. */
  body: unknown;
}

export interface SessionOutcome<R extends BodyResponse> {
  response: R;
  /** True when the token was renewed for this request. */
  renewed: boolean;
}

/** token -> the answer, its body read when it may hold SESSION_EXPIRED and its size allows. */
export type SessionRequest<R extends BodyResponse> = (token: string) => R;

/** Whether an answer could be SESSION_EXPIRED, so that its body is worth reading: an error, not a 429. */
export function mayBeSessionExpired(status: number): boolean {
  return status >= 400 && status !== 429;
}

export class VuSession {
  private current: string | undefined;
  private renewals = 0;
  private readonly issue: () => string;

  /** issue: obtains a new access token (POST /v1/auth/token); throws when it cannot. */
  constructor(issue: () => string) {
    this.issue = issue;
  }

  token(): string {
    if (this.current === undefined) this.current = this.issue();
    return this.current;
  }

  /** Renewals so far (the first token is not a renewal). */
  renewalCount(): number {
    return this.renewals;
  }

  /** Sends with the current token; on SESSION_EXPIRED renews once and repeats once. */
  send<R extends BodyResponse>(request: SessionRequest<R>): SessionOutcome<R> {
    const answer = request(this.token());
    if (!isSessionExpired(jsonBody(answer.body))) return { response: answer, renewed: false };
    this.current = this.issue();
    this.renewals += 1;
    return { response: request(this.current), renewed: true };
  }
}
