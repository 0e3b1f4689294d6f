// The control API over HTTP: only there with control on, and each route drives the same state
// as the in-process control.
import { describe, expect, it } from 'vitest';
import { expectErrorBody, type TestServer, withServer } from '../helpers.ts';

const CONTROL_CALLS: [string, string, unknown?][] = [
  ['GET', '/__control/'],
  ['POST', '/__control/clock/advance', { seconds: 61 }],
  ['PUT', '/__control/features/reports', { enabled: false }],
  ['POST', '/__control/sessions/expire'],
  ['PUT', '/__control/token-ttl', { seconds: 0 }],
  ['PUT', '/__control/rate-limit', { limit: 3, windowSeconds: 60 }],
  ['POST', '/__control/api-keys', {}],
  ['PUT', '/__control/faults', { faults: ['page-size-20'] }],
  ['GET', '/__control/requests'],
  ['DELETE', '/__control/requests'],
  ['POST', '/__control/reset'],
];

const send = (s: TestServer, method: string, path: string, body?: unknown) =>
  s.call(path, { method, ...(body === undefined ? {} : { body }) });

describe('control routes over HTTP', () => {
  it.each(CONTROL_CALLS)(
    '%s %s is a 404 error body without control, and changes nothing',
    async (method, path, body) => {
      await withServer({}, async (s) => {
        expect(s.running.controlUrl).toBeUndefined();
        expectErrorBody(await send(s, method, path, body), 404, path);
        expect(s.control.faults()).toEqual([]);
        expect((await s.withKey('/api/v1/reports')).status).toBe(200);
      });
    },
  );

  it.each(CONTROL_CALLS)('%s %s answers 2xx with control on', async (method, path, body) => {
    await withServer({ control: true }, async (s) => {
      expect(s.running.controlUrl).toBe(s.url('/__control/'));
      const answer = await send(s, method, path, body);
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(300);
    });
  });

  it('drive the server: clock, features, faults, token lifetime, sessions, keys, counts, reset', async () => {
    await withServer({ control: true }, async (s) => {
      const before = s.control.now().getTime();
      await send(s, 'POST', '/__control/clock/advance', { seconds: 3600 });
      expect(s.control.now().getTime() - before).toBeGreaterThanOrEqual(3_600_000);

      await send(s, 'PUT', '/__control/features/reports', { enabled: false });
      expect(expectErrorBody(await s.withKey('/api/v1/reports'), 503).code).toBe('FEATURE_FLAG_DISABLED');

      await send(s, 'PUT', '/__control/faults', { faults: ['page-size-20'] });
      expect(((await s.withKey('/api/v1/customers')).json as { data: unknown[] }).data).toHaveLength(20);
      await send(s, 'PUT', '/__control/faults', { faults: [] });

      const token = await s.token();
      const expired = await send(s, 'POST', '/__control/sessions/expire', { access_token: token });
      expect(expired.json).toEqual({ expired: 1 });
      const me = await s.call('/api/v1/user/me', { headers: { authorization: `Bearer ${token}` } });
      expect(expectErrorBody(me, 401).code).toBe('SESSION_EXPIRED');

      await send(s, 'PUT', '/__control/token-ttl', { seconds: 5 });
      expect((await s.requestToken()).json).toMatchObject({ expires_in: 5 });

      const key = (
        await send(s, 'POST', '/__control/api-keys', { rateLimit: { limit: 1, windowSeconds: 60 } })
      ).json as { id: string; secret: string };
      const headers = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
      expect((await s.call('/api/v1/customers', { headers })).status).toBe(200);
      expect((await s.call('/api/v1/customers', { headers })).status).toBe(429);

      await send(s, 'PUT', '/__control/rate-limit', { limit: 1, windowSeconds: 60 });
      await s.withKey('/api/v1/customers');
      expect((await s.withKey('/api/v1/customers')).status).toBe(429);

      const counts = (await send(s, 'GET', '/__control/requests')).json as {
        byRoute: Record<string, number>;
      };
      expect(counts.byRoute['GET /api/v1/customers']).toBeGreaterThanOrEqual(5);
      await send(s, 'DELETE', '/__control/requests');
      expect((await send(s, 'GET', '/__control/requests')).json).toEqual({
        total: 0,
        byRoute: {},
        tokenRequests: 0,
      });

      await send(s, 'POST', '/__control/reset');
      expect((await s.withKey('/api/v1/reports')).status).toBe(200);
      expect((await s.requestToken()).json).toMatchObject({ expires_in: 3600 });
    });
  });

  it.each([
    ['POST', '/__control/clock/advance', { seconds: -1 }, 400],
    ['POST', '/__control/clock/advance', { seconds: 'soon' }, 400],
    // Once answered with a dropped connection: the virtual time left the range of Date.
    ['POST', '/__control/clock/advance', { seconds: 1e300 }, 400],
    ['PUT', '/__control/features/nothing', { enabled: false }, 404],
    ['PUT', '/__control/features/reports', { enabled: 'no' }, 400],
    ['PUT', '/__control/token-ttl', { seconds: 1.5 }, 400],
    ['PUT', '/__control/rate-limit', { limit: 0 }, 400],
    ['POST', '/__control/api-keys', { rateLimit: 3 }, 400],
    ['PUT', '/__control/faults', { faults: ['no-such-fault'] }, 400],
    ['PUT', '/__control/faults', { faults: 'page-size-20' }, 400],
  ])('%s %s with %j answers %s with the error body', async (method, path, body, status) => {
    await withServer({ control: true }, async (s) => {
      expectErrorBody(await send(s, method, path, body), status, path);
      expect(s.control.faults()).toEqual([]);
    });
  });
});
