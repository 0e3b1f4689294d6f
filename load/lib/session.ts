// One bearer token per virtual user, renewed on SESSION_EXPIRED: the request is repeated once
// with a new token, and a second SESSION_EXPIRED for the same request is final (the spec's rule).
// Bodies are discarded unless a request keeps its own (load/lib/bounded.ts): the code of an error
// is then unknown, so an error answer (4xx other than 429, or 5xx: the spec does not show the
// status of SESSION_EXPIRED) is asked again once with its body kept, and that answer decides. A
// success, most answers, is never read whole. Pure: the token request and the HTTP call are passed
// in, so vitest tests the logic in Node and k6 gives it k6/http (each k6 VU has its own JS
// runtime, so no cross-VU sharing is needed).
import { isSessionExpired, jsonBody } from './shared/error-body.ts';

export interface BodyResponse {
  status: number;
  /** k6 gives a string (or null when the body was discarded, or an ArrayBuffer for binary answers). */
  body: unknown;
}

export interface SessionOutcome<R extends BodyResponse> {
  response: R;
  /** True when the token was renewed for this request. */
  renewed: boolean;
}

/** (token, keepBody) -> the answer; keepBody false lets k6 discard the body. */
export type SessionRequest<R extends BodyResponse> = (token: string, keepBody: boolean) => R;

/** Whether an answer whose body was discarded could be SESSION_EXPIRED: an error, not a 429. */
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

  /**
   * Sends with the current token; on SESSION_EXPIRED renews once and repeats once. keepBody: the
   * caller reads the body anyway (then no error is asked twice).
   */
  send<R extends BodyResponse>(request: SessionRequest<R>, keepBody = false): SessionOutcome<R> {
    const token = this.token();
    let answer = request(token, keepBody);
    if (!keepBody && mayBeSessionExpired(answer.status)) answer = request(token, true);
    if (!isSessionExpired(jsonBody(answer.body))) return { response: answer, renewed: false };
    this.current = this.issue();
    this.renewals += 1;
    return { response: request(this.current, keepBody), renewed: true };
  }
}
