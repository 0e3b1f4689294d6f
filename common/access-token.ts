// What an access token from the token route must be before either half uses it: it goes back in
// every Authorization header, so one that is huge (a 1 MiB token took a run from 300 MB to
// 956 MB) or carries a byte a header cannot hold is refused at once, naming the token route,
// instead of failing later in every check. RFC 6750 shows the token as b64token (visible ASCII);
// the spec shows only "access_token (string)", so any visible ASCII is taken. k6-safe.

/** The largest token taken: far above real tokens (JWTs of a few KiB), far below a header limit. */
export const MAX_ACCESS_TOKEN_LENGTH = 8192;

/** Why this token cannot be used, or undefined when it can. Never quotes the token. */
export function accessTokenProblem(token: string): string | undefined {
  if (token.length > MAX_ACCESS_TOKEN_LENGTH) {
    return `its access_token is ${token.length} characters long, more than the ${MAX_ACCESS_TOKEN_LENGTH} a header may carry here`;
  }
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) {
      return `its access_token holds a character no Authorization header may carry (at ${i}, U+${code.toString(16).padStart(4, '0')})`;
    }
  }
  return undefined;
}
