// The in-process control: request counts and reset() back to the start state.
import { describe, expect, it } from 'vitest';
import { withServer } from './helpers.ts';

describe('request counts', () => {
  it('counts requests by route template, token requests apart, control routes never', async () => {
    await withServer({ control: true }, async (s) => {
      await s.withBearer('/api/v1/user/me');
      await s.withKey('/api/v1/customers?page=2');
      await s.withKey('/api/v1/customers?page=9');
      await s.call('/petstore/v1/pets/1');
      await s.call('/petstore/v1/pets/2');
      await s.call('/nowhere');
      await s.call('/__control/requests');
      expect(s.control.requestCounts()).toEqual({
        total: 7,
        tokenRequests: 1,
        byRoute: {
          'POST /api/v1/auth/token': 1,
          'GET /api/v1/user/me': 1,
          'GET /api/v1/customers': 2,
          'GET /petstore/v1/pets/{petId}': 2,
        },
      });
      s.control.resetCounts();
      expect(s.control.requestCounts()).toEqual({ total: 0, byRoute: {}, tokenRequests: 0 });
    });
  });
});

describe('reset()', () => {
  it('puts clock, features, faults, pets, keys, tokens, limits and counts back to the start', async () => {
    await withServer({ faults: ['page-size-20'], rateLimit: { limit: 50, windowSeconds: 60 } }, async (s) => {
      const start = s.control.now().getTime();
      const token = await s.token();
      const key = s.control.createApiKey();
      s.control.advanceClock(10_000);
      s.control.setFeature('reports', false);
      s.control.setFaults(['create-pet-200']);
      s.control.setTokenTtl(1);
      s.control.setRateLimit(1, 60);
      await s.call('/petstore/v1/pets', { method: 'POST', body: { id: 4242, name: 'Temp' } });

      s.control.reset();
      expect(s.control.now().getTime() - start).toBeLessThan(10_000_000);
      expect(s.control.faults()).toEqual(['page-size-20']);
      expect((await s.withKey('/api/v1/reports')).status).toBe(200);
      expect((await s.call('/petstore/v1/pets/4242')).status).toBe(404);
      expect((await s.requestToken()).json).toMatchObject({ expires_in: 3600 });
      expect(
        (await s.call('/api/v1/user/me', { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(401);
      const keyHeaders = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
      expect((await s.call('/api/v1/customers', { headers: keyHeaders })).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await s.withKey('/api/v1/customers')).status).toBe(200);
      expect(s.control.requestCounts()).toEqual({
        total: 8,
        tokenRequests: 1,
        byRoute: {
          'GET /api/v1/reports': 1,
          'GET /petstore/v1/pets/{petId}': 1,
          'POST /api/v1/auth/token': 1,
          'GET /api/v1/user/me': 1,
          'GET /api/v1/customers': 4,
        },
      });
    });
  });
});

describe('limits set through the control API', () => {
  it("take the server's limiter shape: a throwaway key of a token-bucket server waits for one token, not a window", async () => {
    const shape = 'token-bucket' as const;
    await withServer({ control: true, rateLimit: { limit: 600, windowSeconds: 60, shape } }, async (s) => {
      // 3 per 30 s: a token every 10 s. A fixed window would say 30 s.
      const key = s.control.createApiKey({ rateLimit: { limit: 3, windowSeconds: 30 } });
      const headers = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
      for (let i = 0; i < 3; i++) expect((await s.call('/api/v1/customers', { headers })).status).toBe(200);
      const refused = await s.call('/api/v1/customers', { headers });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('10');
      s.control.setRateLimit(2, 20);
      const token = await s.token();
      const bearer = { authorization: `Bearer ${token}` };
      for (let i = 0; i < 2; i++) await s.call('/api/v1/user/me', { headers: bearer });
      const bearerRefused = await s.call('/api/v1/user/me', { headers: bearer });
      expect(bearerRefused.status).toBe(429);
      expect(bearerRefused.headers['retry-after']).toBe('10');
    });
  });
});
