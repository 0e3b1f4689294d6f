// The token route and token lifetime: what a client gets, what it is refused, and SESSION_EXPIRED.
import { describe, expect, it } from 'vitest';
import { expectErrorBody, withServer } from './helpers.ts';

const TOKEN = '/api/v1/auth/token';
const ME = '/api/v1/user/me';

describe('POST /v1/auth/token', () => {
  it('gives a bearer token, its type and lifetime for the right client credentials', async () => {
    await withServer({}, async (s) => {
      const answer = await s.requestToken();
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      const body = answer.json as Record<string, unknown>;
      expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
      expect(body.access_token).not.toBe(await s.token());
      const me = await s.call(ME, { headers: { authorization: `Bearer ${String(body.access_token)}` } });
      expect(me.status).toBe(200);
    });
  });

  it('refuses a wrong client_secret or an unknown client_id with 401 INVALID_CLIENT', async () => {
    await withServer({}, async (s) => {
      const wrong = await s.requestToken('not-the-secret');
      expect(expectErrorBody(wrong, 401, TOKEN).code).toBe('INVALID_CLIENT');
      expect(wrong.text).not.toContain(s.running.credentials.clientSecret);
      const unknown = await s.call(TOKEN, {
        method: 'POST',
        body: { client_id: 'nobody', client_secret: s.running.credentials.clientSecret },
      });
      expect(expectErrorBody(unknown, 401, TOKEN).code).toBe('INVALID_CLIENT');
    });
  });

  it.each([
    ['no client_secret', { client_id: 'local-conformance-client' }],
    ['no client_id', { client_secret: 'x' }],
    ['fields of the wrong type', { client_id: 1, client_secret: true }],
    ['an empty object', {}],
  ])('refuses %s with 401 and the error body', async (_label, body) => {
    await withServer({}, async (s) => {
      expectErrorBody(await s.call(TOKEN, { method: 'POST', body }), 401, TOKEN);
    });
  });

  it.each([
    ['malformed JSON', '{"client_id": ', 'application/json', 400],
    ['a JSON array', '[1, 2]', 'application/json', 400],
    ['an empty body', '', 'application/json', 400],
    ['a form body', 'client_id=a&client_secret=b', 'application/x-www-form-urlencoded', 415],
  ])('answers %s with a 4xx error body', async (_label, body, type, status) => {
    await withServer({}, async (s) => {
      const answer = await s.call(TOKEN, { method: 'POST', body, headers: { 'content-type': type } });
      expectErrorBody(answer, status, TOKEN);
    });
  });

  it('issues tokens with the lifetime set by setTokenTtl', async () => {
    await withServer({ tokenTtlSeconds: 120 }, async (s) => {
      expect((await s.requestToken()).json).toMatchObject({ expires_in: 120 });
      s.control.setTokenTtl(30);
      expect((await s.requestToken()).json).toMatchObject({ expires_in: 30 });
      expect(() => s.control.setTokenTtl(-1)).toThrow(/tokenTtlSeconds/);
    });
  });
});

describe('token expiry', () => {
  it('answers SESSION_EXPIRED (401) once the lifetime has passed on the virtual clock', async () => {
    await withServer({}, async (s) => {
      s.control.setTokenTtl(10);
      const headers = await s.bearerHeaders();
      s.control.advanceClock(9);
      expect((await s.call(ME, { headers })).status).toBe(200);
      s.control.advanceClock(1);
      const expired = await s.call(ME, { headers });
      expect(expectErrorBody(expired, 401, ME).code).toBe('SESSION_EXPIRED');
      // A new token works again: renewal is possible.
      expect((await s.withBearer(ME)).status).toBe(200);
    });
  });

  it('uses sessionExpiredStatus as the HTTP status (and status_code) of SESSION_EXPIRED', async () => {
    await withServer({ sessionExpiredStatus: 419 }, async (s) => {
      const headers = await s.bearerHeaders();
      s.control.expireSessions();
      const body = expectErrorBody(await s.call(ME, { headers }), 419, ME);
      expect(body.code).toBe('SESSION_EXPIRED');
    });
  });

  it('expireSessions(token) expires that token only; expireSessions() expires all', async () => {
    await withServer({}, async (s) => {
      const a = await s.token();
      const b = await s.token();
      expect(s.control.expireSessions(a)).toBe(1);
      expect(s.control.expireSessions('never-issued')).toBe(0);
      const auth = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
      expect((await s.call(ME, auth(a))).status).toBe(401);
      expect((await s.call(ME, auth(b))).status).toBe(200);
      expect(s.control.expireSessions()).toBe(2);
      expect(expectErrorBody(await s.call(ME, auth(b)), 401).code).toBe('SESSION_EXPIRED');
    });
  });

  it('refuses a token that was never issued with INVALID_TOKEN, not SESSION_EXPIRED', async () => {
    await withServer({}, async (s) => {
      const answer = await s.call(ME, { headers: { authorization: 'Bearer made-up' } });
      expect(expectErrorBody(answer, 401, ME).code).toBe('INVALID_TOKEN');
    });
  });
});
