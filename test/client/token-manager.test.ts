// Token renewal (spec, Authentication / Bearer token 4): renew once on SESSION_EXPIRED and repeat,
// a repeated SESSION_EXPIRED is final (REN-04), one renewal shared by every waiting request.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, TokenError } from '../../src/client/index.ts';
import { createTokenManager } from '../../src/client/token-manager.ts';
import {
  json,
  type Received,
  SECRETS,
  sessionExpired,
  startServer,
  type TestServer,
  testConfig,
} from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bearerOf = (r: Received) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const userMe = { service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' } as const;

/** A target whose token route hands out fresh-1, fresh-2, ... and whose only valid tokens are those. */
async function tokenServer(
  options: { expiredStatus?: number; tokenDelayMs?: number; onProtected?: (r: Received) => unknown } = {},
) {
  let issued = 0;
  const srv = await startServer(async (req, res) => {
    if (req.path === '/api/v1/auth/token') {
      issued += 1;
      const token = `fresh-${issued}`;
      if (options.tokenDelayMs) await new Promise((r) => setTimeout(r, options.tokenDelayMs));
      return json(res, 200, { access_token: token });
    }
    const custom = options.onProtected?.(req);
    if (custom !== undefined) return json(res, 200, custom);
    if (bearerOf(req).startsWith('fresh-')) return json(res, 200, { id: 'u1', token: 'ok' });
    return json(res, options.expiredStatus ?? 401, sessionExpired());
  });
  const tokenRequests = () => srv.received.filter((r) => r.path === '/api/v1/auth/token').length;
  const protectedRequests = () => srv.received.filter((r) => r.path !== '/api/v1/auth/token');
  return { srv, tokenRequests, protectedRequests };
}

describe('token renewal', () => {
  it('a repeated SESSION_EXPIRED is final: one renewal, the second answer returned, no third try (REN-04)', async () => {
    let answers = 0;
    server = await startServer((req, res) => {
      if (req.path === '/api/v1/auth/token') return json(res, 200, { access_token: 'fresh-1' });
      answers += 1;
      return json(res, 401, sessionExpired(`answer ${answers}`));
    });
    const client = createApiClient(testConfig(server.origin));
    client.tokens.useToken('stale-token');

    const res = await client.request(userMe);

    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'SESSION_EXPIRED', message: 'answer 2' });
    const calls = server.received.filter((r) => r.path === '/api/v1/user/me');
    expect(calls.map(bearerOf)).toEqual(['stale-token', 'fresh-1']);
    expect(client.tokens.tokenRequests).toBe(1);
    expect(server.received.filter((r) => r.path === '/api/v1/auth/token')).toHaveLength(1);
  });

  it('renews the token with client_id and client_secret and repeats the request once with the new token', async () => {
    const t = await tokenServer();
    server = t.srv;
    const client = createApiClient(testConfig(server.origin));
    client.tokens.useToken('stale-token');

    const res = await client.request(userMe);

    expect(res.status).toBe(200);
    expect(t.protectedRequests().map(bearerOf)).toEqual(['stale-token', 'fresh-1']);
    const tokenCall = server.received.find((r) => r.path === '/api/v1/auth/token');
    expect(tokenCall?.method).toBe('POST');
    expect(tokenCall?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(tokenCall?.body ?? '{}')).toEqual({
      client_id: 'test-client',
      client_secret: SECRETS.clientSecret,
    });
  });

  it('20 concurrent requests that all meet SESSION_EXPIRED cause one token request, and all 20 succeed', async () => {
    // Hold the 20 expired answers until all 20 requests arrived, and the token answer a little, so
    // every failure is seen while the one renewal is still running.
    const held: (() => void)[] = [];
    let issued = 0;
    server = await startServer(async (req, res) => {
      if (req.path === '/api/v1/auth/token') {
        issued += 1;
        await new Promise((r) => setTimeout(r, 50));
        return json(res, 200, { access_token: `fresh-${issued}` });
      }
      if (bearerOf(req).startsWith('fresh-')) return json(res, 200, { ok: true, token: bearerOf(req) });
      held.push(() => json(res, 401, sessionExpired()));
      if (held.length === 20) for (const answer of held) answer();
    });
    const client = createApiClient(testConfig(server.origin));
    client.tokens.useToken('stale-token');

    const results = await Promise.all(Array.from({ length: 20 }, () => client.request(userMe)));

    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.map((r) => (r.body as { token: string }).token)).toEqual(Array(20).fill('fresh-1'));
    expect(issued).toBe(1);
    expect(client.tokens.tokenRequests).toBe(1);
    expect(server.received.filter((r) => r.path === '/api/v1/user/me')).toHaveLength(40);
  });

  it.each([401, 403, 419, 440, 200])(
    'recognises SESSION_EXPIRED by its code under HTTP %i',
    async (status) => {
      const t = await tokenServer({ expiredStatus: status });
      server = t.srv;
      const client = createApiClient(testConfig(server.origin));
      client.tokens.useToken('stale-token');

      const res = await client.request(userMe);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: 'u1', token: 'ok' });
      expect(t.tokenRequests()).toBe(1);
    },
  );

  it('does not renew on a 401 that is not SESSION_EXPIRED', async () => {
    server = await startServer((req, res) => {
      if (req.path === '/api/v1/auth/token') return json(res, 200, { access_token: 'fresh-1' });
      return json(res, 401, { code: 'UNAUTHORIZED', message: 'bad token' });
    });
    const client = createApiClient(testConfig(server.origin));
    client.tokens.useToken('stale-token');
    const res = await client.request(userMe);
    expect(res.status).toBe(401);
    expect(client.tokens.tokenRequests).toBe(0);
    expect(server.received).toHaveLength(1);
  });

  it('renew: false returns the first SESSION_EXPIRED as it is', async () => {
    const t = await tokenServer();
    server = t.srv;
    const client = createApiClient(testConfig(server.origin));
    client.tokens.useToken('stale-token');
    const res = await client.request({ ...userMe, renew: false });
    expect(res.body).toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(t.tokenRequests()).toBe(0);
  });

  it('API key and custom-credential requests are never renewed', async () => {
    const t = await tokenServer({ onProtected: () => undefined });
    server = t.srv;
    const client = createApiClient(testConfig(server.origin));
    const a = await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' });
    const b = await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/customers',
      auth: { headers: { authorization: 'Bearer stale' } },
    });
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(t.tokenRequests()).toBe(0);
  });

  it('gets a token on first use and reuses it: one token request for many concurrent first requests', async () => {
    const t = await tokenServer({ tokenDelayMs: 20 });
    server = t.srv;
    const client = createApiClient(testConfig(server.origin));
    const results = await Promise.all(Array.from({ length: 5 }, () => client.request(userMe)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await client.request(userMe);
    expect(t.tokenRequests()).toBe(1);
    expect(t.protectedRequests().map(bearerOf)).toEqual(Array(6).fill('fresh-1'));
  });

  it('a refused token request is a one-line TokenError without the client secret', async () => {
    server = await startServer((_req, res) =>
      json(res, 401, { code: 'INVALID_CLIENT', message: `unknown client ${SECRETS.clientSecret}` }),
    );
    const client = createApiClient(testConfig(server.origin));
    const error = await client.request(userMe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    const message = (error as Error).message;
    expect(message).toBe(
      `token request failed: POST ${server.origin}/api/v1/auth/token answered 401 (INVALID_CLIENT)`,
    );
    expect(message).not.toContain(SECRETS.clientSecret);
  });
});

describe('token manager (single-flight renewal)', () => {
  function counting() {
    let n = 0;
    const waiting: ((token: string) => void)[] = [];
    const fetch = () =>
      new Promise<string>((resolve) => {
        n += 1;
        waiting.push(resolve);
      });
    const answer = () => {
      for (const resolve of waiting.splice(0)) resolve(`t${n}`);
    };
    return { fetch, answer, count: () => n };
  }

  it('concurrent renewals of the same stale token share one token request', async () => {
    const f = counting();
    const tokens = createTokenManager(f.fetch);
    tokens.useToken('t0');
    const renewals = Array.from({ length: 10 }, () => tokens.renew('t0'));
    f.answer();
    expect(await Promise.all(renewals)).toEqual(Array(10).fill('t1'));
    expect(f.count()).toBe(1);
    expect(tokens.tokenRequests).toBe(1);
  });

  it('a request that failed with an already-replaced token gets the current token, no new request', async () => {
    const f = counting();
    const tokens = createTokenManager(f.fetch);
    tokens.useToken('t0');
    const first = tokens.renew('t0');
    f.answer();
    expect(await first).toBe('t1');
    expect(await tokens.renew('t0')).toBe('t1');
    expect(f.count()).toBe(1);
  });

  it('renewing the current token asks for a new one', async () => {
    const f = counting();
    const tokens = createTokenManager(f.fetch);
    tokens.useToken('t0');
    const first = tokens.renew('t0');
    f.answer();
    await first;
    const second = tokens.renew('t1');
    f.answer();
    expect(await second).toBe('t2');
    expect(tokens.tokenRequests).toBe(2);
  });

  it('a failed renewal is not cached: the next renewal asks again', async () => {
    let n = 0;
    const tokens = createTokenManager(async () => {
      n += 1;
      if (n === 1) throw new Error('token route down');
      return `t${n}`;
    });
    await expect(tokens.renew(undefined)).rejects.toThrow('token route down');
    expect(await tokens.renew(undefined)).toBe('t2');
    expect(await tokens.getToken()).toBe('t2');
    expect(n).toBe(2);
  });
});
