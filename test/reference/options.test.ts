// Server options: defaults, refusals of bad values, the other-choices server (extraFields) and
// the added latency of benchmarks.
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { type Envelope, withServer } from './helpers.ts';

describe('startReferenceServer options', () => {
  it('listens on 127.0.0.1 on an ephemeral port with the two base URLs and the default credentials', async () => {
    await withServer({}, async (s) => {
      expect(s.running.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
      expect(s.running.petstoreBaseUrl).toBe(`${s.origin}/petstore/v1`);
      expect(s.running.credentials.clientId).toBe('local-conformance-client');
      expect(s.running.credentials.pinnedApiKeyId).toBe('local-pinned-api-key');
    });
  });

  it.each([
    [{ port: 70_000 }, /port/],
    [{ faults: ['no-such-fault'] }, /unknown fault "no-such-fault"/],
    [{ rateLimit: { limit: 0, windowSeconds: 60 } }, /rateLimit\.limit/],
    [{ tokenTtlSeconds: -1 }, /tokenTtlSeconds/],
    [{ sessionExpiredStatus: 500 }, /sessionExpiredStatus/],
    [{ latencyMs: -1 }, /latencyMs/],
  ])('refuses %j with a one-line error naming the option', async (options, message) => {
    const attempt = startReferenceServer(options);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.not.toThrow(/\n/);
  });

  it('refuses a port that is taken with a one-line error', async () => {
    await withServer({}, async (s) => {
      const port = Number(new URL(s.origin).port);
      await expect(startReferenceServer({ port })).rejects.toThrow(
        /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/,
      );
    });
  });

  it('extraFields makes the other reasonable choices where the spec is silent', async () => {
    await withServer({ extraFields: true }, async (s) => {
      const token = (await s.requestToken()).json as Record<string, unknown>;
      expect(token).toMatchObject({ access_token: expect.any(String), scope: expect.any(String) });
      expect(Date.parse(String(token.issued_at))).not.toBeNaN();
      const page = (await s.withKey('/api/v1/customers')).json as Envelope;
      expect(page.extra).toEqual({ sort: 'id', order: 'asc', page_size: 50 });
      expect(Object.keys(page.data[0] ?? {})).toContain('company');
      const created = await s.call('/petstore/v1/pets', { method: 'POST', body: { id: 9001, name: 'Rex' } });
      expect(created.status).toBe(201);
      expect(created.json).toEqual({ id: 9001, name: 'Rex' });
      const shown = await s.call('/petstore/v1/pets/9001');
      expect(shown.headers.sunset).toBeDefined();
      const flags = (await s.withBearer('/api/v1/feature-flags')).json as Record<string, unknown>;
      expect(flags).toMatchObject({ features: { reports: { enabled: true } }, cache_seconds: 60 });
    });
  });

  it('latencyMs delays every answer by at least that long', async () => {
    // A lower bound only: a timer never fires early, so this cannot flake on a slow machine.
    await withServer({ latencyMs: 60 }, async (s) => {
      const started = performance.now();
      const answer = await s.call('/petstore/v1/pets/1');
      expect(answer.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    });
  });
});
