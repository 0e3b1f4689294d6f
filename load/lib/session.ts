// One bearer token per virtual user, renewed on SESSION_EXPIRED: the request is repeated once
// with a new token, and a second SESSION_EXPIRED for the same request is final (the spec's rule).
// Pure: the token request and the HTTP call are passed in, so vitest tests the logic in Node and
// k6 gives it k6/http (each k6 VU has its own JS runtime, so no cross-VU sharing is needed).
import { isSessionExpired, jsonBody } from './shared/error-body.ts';

export interface BodyResponse {
  status: number;
  /** k6 gives a string (or null, or an ArrayBuffer for binary answers). */
  body: unknown;
}

export interface SessionOutcome<R extends BodyResponse> {
  response: R;
  /** True when the token was renewed for this request. */
  renewed: boolean;
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
  send<R extends BodyResponse>(request: (token: string) => R): SessionOutcome<R> {
    const first = request(this.token());
    if (!isSessionExpired(jsonBody(first.body))) return { response: first, renewed: false };
    this.current = this.issue();
    this.renewals += 1;
    return { response: request(this.current), renewed: true };
  }
}
