// A token the route hands out goes back in every Authorization header: a huge one (1 MiB took a
// run from 300 MB to 956 MB) or one with a byte no header carries is refused at once, naming the
// token route, never quoted.
import { afterEach, describe, expect, it } from 'vitest';
import { accessTokenProblem, MAX_ACCESS_TOKEN_LENGTH } from '../../common/access-token.ts';
import { createApiClient, TokenError } from '../../src/client/index.ts';
import { startServer, type TestServer, testConfig } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('accessTokenProblem', () => {
  it('takes visible ASCII up to the stated length', () => {
    expect(accessTokenProblem('eyJhbGciOiJIUzI1NiJ9.e30.sig-_~+/=')).toBeUndefined();
    expect(accessTokenProblem('x'.repeat(MAX_ACCESS_TOKEN_LENGTH))).toBeUndefined();
  });

  it.each([
    ['one character too long', 'x'.repeat(MAX_ACCESS_TOKEN_LENGTH + 1), /more than the 8192/],
    ['a space', 'abc def', /U\+0020/],
    ['a line break', 'abc\r\nX-Evil: 1', /U\+000d/],
    ['a zero-width space', 'abc\u200bdef', /U\+200b/],
    ['non-ASCII', 'tökén', /U\+00f6/],
  ])('refuses %s', (_what, token, reason) => {
    expect(accessTokenProblem(token)).toMatch(reason);
  });
});

describe('the client refuses an unusable token from the token route', () => {
  it.each([
    ['1 MiB long', 'x'.repeat(1024 * 1024)],
    ['with a line break', 'tok\nen-value'],
  ])('%s: a TokenError naming the route, the token never quoted', async (_what, token) => {
    server = await startServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.path.endsWith('/auth/token') ? { access_token: token } : {}));
    });
    const client = createApiClient(testConfig(server.origin));
    const error = await client.tokens.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(String((error as Error).message)).toMatch(
      /^token request failed: POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/auth\/token answered 200, but its access_token/,
    );
    expect(String((error as Error).message)).not.toContain(token.slice(0, 12));
  });
});
