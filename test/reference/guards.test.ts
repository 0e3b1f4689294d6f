// What stands before a route: which credentials each route accepts, the pinned key, the rate
// limiter (per credential, on the virtual clock) and the feature switches.
import { describe, expect, it } from 'vitest';
import { expectErrorBody, withServer } from './helpers.ts';

const CUSTOMERS = '/api/v1/customers';
const ME = '/api/v1/user/me';
const FLAGS = '/api/v1/feature-flags';
const REPORTS = '/api/v1/reports';

describe('credentials per route', () => {
  it('GET /v1/customers and /v1/reports accept an API key and a bearer token', async () => {
    await withServer({}, async (s) => {
      for (const path of [CUSTOMERS, REPORTS]) {
        expect((await s.withKey(path)).status).toBe(200);
        expect((await s.withBearer(path)).status).toBe(200);
      }
    });
  });

  it.each([ME, FLAGS])(
    '%s is bearer only: an API key is refused with 403 and the error body',
    async (path) => {
      await withServer({}, async (s) => {
        expect((await s.withBearer(path)).status).toBe(200);
        const refused = await s.withKey(path);
        expect(expectErrorBody(refused, 403, path).code).toBe('FORBIDDEN');
        expect(refused.json).toMatchObject({ message: expect.stringMatching(/bearer/i) });
      });
    },
  );

  it.each([CUSTOMERS, ME, FLAGS, REPORTS])(
    '%s without credentials answers 401 UNAUTHORIZED',
    async (path) => {
      await withServer({}, async (s) => {
        expect(expectErrorBody(await s.call(path), 401, path).code).toBe('UNAUTHORIZED');
      });
    },
  );

  it('refuses a wrong API key secret, an unknown key id and half a key with 401', async () => {
    await withServer({}, async (s) => {
      const c = s.running.credentials;
      const wrong = await s.call(CUSTOMERS, {
        headers: { 'x-api-key-id': c.apiKeyId, 'x-api-key-secret': 'no' },
      });
      expect(expectErrorBody(wrong, 401, CUSTOMERS).code).toBe('INVALID_API_KEY');
      expect(wrong.text).not.toContain(c.apiKeySecret);
      const unknown = await s.call(CUSTOMERS, {
        headers: { 'x-api-key-id': 'nobody', 'x-api-key-secret': c.apiKeySecret },
      });
      expect(expectErrorBody(unknown, 401, CUSTOMERS).code).toBe('INVALID_API_KEY');
      const half = await s.call(CUSTOMERS, { headers: { 'x-api-key-id': c.apiKeyId } });
      expect(expectErrorBody(half, 401, CUSTOMERS).code).toBe('UNAUTHORIZED');
    });
  });

  it('accepts the scheme name in any case and refuses a malformed Authorization header', async () => {
    await withServer({}, async (s) => {
      const token = await s.token();
      expect((await s.call(ME, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
      for (const authorization of [token, `Basic ${token}`, 'Bearer', `Bearer ${token} extra`]) {
        expect(expectErrorBody(await s.call(ME, { headers: { authorization } }), 401, ME).code).toBe(
          'UNAUTHORIZED',
        );
      }
    });
  });
});

describe('the pinned API key', () => {
  it('is refused from loopback (pinned to 203.0.113.10) with 403 IP_NOT_ALLOWED', async () => {
    await withServer({}, async (s) => {
      const answer = await s.call(CUSTOMERS, { headers: s.pinnedKeyHeaders() });
      const body = expectErrorBody(answer, 403, CUSTOMERS);
      expect(body.code).toBe('IP_NOT_ALLOWED');
      expect(answer.text).not.toContain(s.running.credentials.pinnedApiKeySecret);
    });
  });

  it('is accepted from the address it is pinned to (a key pinned to 127.0.0.1)', async () => {
    await withServer({}, async (s) => {
      const key = s.control.createApiKey({ pinnedAddress: '127.0.0.1' });
      const headers = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
      expect((await s.call(CUSTOMERS, { headers })).status).toBe(200);
    });
  });
});

describe('the rate limiter', () => {
  it('answers 429 with Retry-After and the error body over the limit, and recovers after the window', async () => {
    await withServer({ rateLimit: { limit: 3, windowSeconds: 60 } }, async (s) => {
      for (let i = 0; i < 3; i++) expect((await s.withKey(CUSTOMERS)).status).toBe(200);
      const limited = await s.withKey(CUSTOMERS);
      expect(expectErrorBody(limited, 429, CUSTOMERS).code).toBe('RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(59);
      expect(retryAfter).toBeLessThanOrEqual(60);
      s.control.advanceClock(retryAfter - 2);
      expect((await s.withKey(CUSTOMERS)).status).toBe(429);
      s.control.advanceClock(2);
      expect((await s.withKey(CUSTOMERS)).status).toBe(200);
    });
  });

  it('counts per credential: another key and the bearer client have their own windows', async () => {
    await withServer({ rateLimit: { limit: 2, windowSeconds: 60 } }, async (s) => {
      const headers = await s.bearerHeaders(); // the token request counts for the client
      await s.withKey(CUSTOMERS);
      await s.withKey(CUSTOMERS);
      expect((await s.withKey(CUSTOMERS)).status).toBe(429);
      const other = s.control.createApiKey();
      const otherHeaders = { 'x-api-key-id': other.id, 'x-api-key-secret': other.secret };
      expect((await s.call(CUSTOMERS, { headers: otherHeaders })).status).toBe(200);
      expect((await s.call(CUSTOMERS, { headers })).status).toBe(200);
      expect((await s.call(CUSTOMERS, { headers })).status).toBe(429);
    });
  });

  it('a key created with its own limit is limited by it; setRateLimit(null) switches the default off', async () => {
    await withServer({}, async (s) => {
      const key = s.control.createApiKey({ rateLimit: { limit: 1, windowSeconds: 10 } });
      const headers = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
      expect((await s.call(CUSTOMERS, { headers })).status).toBe(200);
      expect((await s.call(CUSTOMERS, { headers })).headers['retry-after']).toBe('10');
      s.control.setRateLimit(1, 60);
      expect((await s.withKey(CUSTOMERS)).status).toBe(200);
      expect((await s.withKey(CUSTOMERS)).status).toBe(429);
      s.control.setRateLimit(null);
      for (let i = 0; i < 5; i++) expect((await s.withKey(CUSTOMERS)).status).toBe(200);
    });
  });

  it('limits callers without valid credentials by address, so secrets cannot be guessed without limit', async () => {
    await withServer({ rateLimit: { limit: 2, windowSeconds: 60 } }, async (s) => {
      const guess = { 'x-api-key-id': 'local-api-key', 'x-api-key-secret': 'guess' };
      expect((await s.call(CUSTOMERS, { headers: guess })).status).toBe(401);
      expect((await s.call(CUSTOMERS, { headers: guess })).status).toBe(401);
      expectErrorBody(await s.call(CUSTOMERS, { headers: guess }), 429, CUSTOMERS);
    });
  });
});

describe('feature flags', () => {
  type Flags = { data: { name: string; enabled: boolean }[] };
  const reportsFlag = (json: unknown) => (json as Flags).data.find((f) => f.name === 'reports')?.enabled;

  it('lists every feature, all enabled at start', async () => {
    await withServer({}, async (s) => {
      const answer = await s.withBearer(FLAGS);
      expect((answer.json as Flags).data).toEqual(
        ['customers', 'user-profile', 'reports', 'new-dashboard', 'beta-exports'].map((name) => ({
          name,
          enabled: true,
        })),
      );
    });
  });

  it('renews flag data per user only 60 s of virtual time after it was taken', async () => {
    await withServer({}, async (s) => {
      const first = await s.bearerHeaders();
      expect(reportsFlag((await s.call(FLAGS, { headers: first })).json)).toBe(true);
      s.control.setFeature('reports', false);
      // Another token of the same user reads the same cached data.
      const second = await s.bearerHeaders();
      expect(reportsFlag((await s.call(FLAGS, { headers: second })).json)).toBe(true);
      s.control.advanceClock(59);
      expect(reportsFlag((await s.call(FLAGS, { headers: first })).json)).toBe(true);
      s.control.advanceClock(1);
      expect(reportsFlag((await s.call(FLAGS, { headers: first })).json)).toBe(false);
      s.control.setFeature('reports', true);
      s.control.advanceClock(30);
      expect(reportsFlag((await s.call(FLAGS, { headers: first })).json)).toBe(false);
      s.control.advanceClock(30);
      expect(reportsFlag((await s.call(FLAGS, { headers: first })).json)).toBe(true);
    });
  });

  it('GET /v1/reports answers 503 FEATURE_FLAG_DISABLED naming the feature when reports is off', async () => {
    await withServer({}, async (s) => {
      s.control.setFeature('reports', false);
      for (const answer of [await s.withKey(REPORTS), await s.withBearer(REPORTS)]) {
        const body = expectErrorBody(answer, 503, REPORTS);
        expect(body.code).toBe('FEATURE_FLAG_DISABLED');
        expect(body.message).toContain('reports');
      }
      s.control.setFeature('reports', true);
      expect((await s.withKey(REPORTS)).status).toBe(200);
    });
  });

  it('guards customers and the user profile by their own features', async () => {
    await withServer({}, async (s) => {
      s.control.setFeature('customers', false);
      expect(expectErrorBody(await s.withKey(CUSTOMERS), 503).message).toContain('customers');
      s.control.setFeature('user-profile', false);
      expect(expectErrorBody(await s.withBearer(ME), 503).message).toContain('user-profile');
      expect(() => s.control.setFeature('no-such-feature', false)).toThrow(/unknown feature/);
    });
  });
});
