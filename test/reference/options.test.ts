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

  it('refuses an unknown choice, or a value a choice does not have, in one line', async () => {
    await expect(startReferenceServer({ choices: { 'no-such': 'x' } as never })).rejects.toThrow(
      /unknown choice "no-such"/,
    );
    await expect(startReferenceServer({ choices: { 'limit-zero': 'maybe' as never } })).rejects.toThrow(
      /choice limit-zero must be one of refuse, empty, got "maybe"/,
    );
  });

  describe('choices where the spec is silent: this server, then the other conformant answer', () => {
    const PETS = '/petstore/v1/pets';
    const asText = { method: 'POST', headers: { 'content-type': 'text/plain' } };

    it('request-media-type: a text/plain body refused with 415, or read as JSON', async () => {
      await withServer({}, async (s) => {
        const res = await s.call(PETS, { ...asText, body: '{"id": 9101, "name": "Rex"}' });
        expect(res.status).toBe(415);
      });
      await withServer({ choices: { 'request-media-type': 'any' } }, async (s) => {
        expect((await s.call(PETS, { ...asText, body: '{"id": 9101, "name": "Rex"}' })).status).toBe(201);
        const token = await s.call('/api/v1/auth/token', {
          ...asText,
          body: JSON.stringify({
            client_id: s.running.credentials.clientId,
            client_secret: s.running.credentials.clientSecret,
          }),
        });
        expect(token.status).toBe(200);
        expect((await s.call(PETS, { ...asText, body: '{"id": 9102' })).status).toBe(400);
      });
    });

    it('unknown-pet-fields: ignored, stored, or refused', async () => {
      const pet = { id: 9201, name: 'Rex', colour: 'brown' };
      await withServer({}, async (s) => {
        expect((await s.call(PETS, { method: 'POST', body: pet })).status).toBe(201);
        expect((await s.call(`${PETS}/9201`)).json).toEqual({ id: 9201, name: 'Rex' });
      });
      await withServer({ choices: { 'unknown-pet-fields': 'store' } }, async (s) => {
        expect((await s.call(PETS, { method: 'POST', body: { ...pet, __proto__x: 1 } })).status).toBe(201);
        expect((await s.call(`${PETS}/9201`)).json).toEqual({ ...pet, __proto__x: 1 });
        const proto = await s.call(PETS, {
          method: 'POST',
          body: '{"id": 9202, "name": "Tom", "__proto__": {"a": 1}}',
          headers: { 'content-type': 'application/json' },
        });
        expect(proto.status).toBe(201);
        expect((await s.call(`${PETS}/9202`)).json).toEqual({
          id: 9202,
          name: 'Tom',
          ['__proto__']: { a: 1 },
        });
      });
      await withServer({ choices: { 'unknown-pet-fields': 'refuse' } }, async (s) => {
        const res = await s.call(PETS, { method: 'POST', body: pet });
        expect(res.status).toBe(400);
        expect((res.json as { message: string }).message).toMatch(/unknown field "colour"/);
      });
    });

    it('limit-above-100 and limit-zero: refused, or clamped to 100 and answered with no pets', async () => {
      await withServer({}, async (s) => {
        expect((await s.call(`${PETS}?limit=101`)).status).toBe(400);
        expect((await s.call(`${PETS}?limit=0`)).status).toBe(400);
      });
      await withServer({ choices: { 'limit-above-100': 'clamp', 'limit-zero': 'empty' } }, async (s) => {
        expect((await s.call(`${PETS}?limit=101`)).json).toHaveLength(100);
        expect((await s.call(`${PETS}?limit=0`)).json).toEqual([]);
        expect((await s.call(`${PETS}?limit=-1`)).status).toBe(400);
      });
    });

    it('limit-negative: refused, or read as no limit', async () => {
      await withServer({}, async (s) => {
        expect((await s.call(`${PETS}?limit=-1`)).status).toBe(400);
      });
      await withServer({ choices: { 'limit-negative': 'default' } }, async (s) => {
        expect((await s.call(`${PETS}?limit=-1`)).json).toHaveLength(100);
        expect((await s.call(`${PETS}?limit=abc`)).status).toBe(400);
      });
    });

    it('page-below-one: page 0 and a negative page refused with 400, or with 422', async () => {
      await withServer({}, async (s) => {
        expect((await s.withKey('/api/v1/customers?page=0')).status).toBe(400);
      });
      await withServer({ choices: { 'page-below-one': '422' } }, async (s) => {
        for (const page of ['0', '-2']) {
          const res = await s.withKey(`/api/v1/customers?page=${page}`);
          expect(res.status).toBe(422);
          expect((res.json as { code: string }).code).toBe('VALIDATION_ERROR');
        }
        expect((await s.withKey('/api/v1/customers?page=abc')).status).toBe(400);
      });
    });

    it('integer-strings: a pet id "9301" refused, or read as 9301', async () => {
      const pet = { id: '9301', name: 'Rex' };
      await withServer({}, async (s) => {
        expect((await s.call(PETS, { method: 'POST', body: pet })).status).toBe(400);
      });
      await withServer({ choices: { 'integer-strings': 'read' } }, async (s) => {
        expect((await s.call(PETS, { method: 'POST', body: pet })).status).toBe(201);
        expect((await s.call(`${PETS}/9301`)).json).toEqual({ id: 9301, name: 'Rex' });
      });
    });

    it('empty-query-value: page= and limit= refused, or read as not given', async () => {
      await withServer({}, async (s) => {
        expect((await s.withKey('/api/v1/customers?page=')).status).toBe(400);
        expect((await s.call(`${PETS}?limit=`)).status).toBe(400);
      });
      await withServer({ choices: { 'empty-query-value': 'absent' } }, async (s) => {
        expect(((await s.withKey('/api/v1/customers?page=')).json as Envelope).pagination.current_page).toBe(
          1,
        );
        expect((await s.call(`${PETS}?limit=`)).json).toHaveLength(100);
      });
    });
  });

  it('repeated-query: refused, or its first or last value read', async () => {
    const PETS = '/petstore/v1/pets?limit=1&limit=2';
    await withServer({}, async (s) => expect((await s.call(PETS)).status).toBe(400));
    await withServer({ choices: { 'repeated-query': 'first' } }, async (s) =>
      expect((await s.call(PETS)).json).toHaveLength(1),
    );
    await withServer({ choices: { 'repeated-query': 'last' } }, async (s) =>
      expect((await s.call(PETS)).json).toHaveLength(2),
    );
  });

  it('number-notation: limit=1e2 and page=1.0 refused, or read as 100 and 1', async () => {
    await withServer({}, async (s) => {
      expect((await s.call('/petstore/v1/pets?limit=1e2')).status).toBe(400);
      expect((await s.withKey('/api/v1/customers?page=1.0')).status).toBe(400);
    });
    await withServer({ choices: { 'number-notation': 'read' } }, async (s) => {
      expect((await s.call('/petstore/v1/pets?limit=1e2')).json).toHaveLength(100);
      expect(((await s.withKey('/api/v1/customers?page=1.0')).json as Envelope).pagination.current_page).toBe(
        1,
      );
      expect((await s.call('/petstore/v1/pets?limit=1.5')).status).toBe(400);
    });
  });

  it('pet-text: a blank or 201-character name refused, or stored', async () => {
    const long = 'n'.repeat(201);
    await withServer({}, async (s) => {
      expect(
        (await s.call('/petstore/v1/pets', { method: 'POST', body: { id: 9501, name: '' } })).status,
      ).toBe(400);
      expect(
        (await s.call('/petstore/v1/pets', { method: 'POST', body: { id: 9502, name: long } })).status,
      ).toBe(400);
    });
    await withServer({ choices: { 'pet-text': 'any' } }, async (s) => {
      expect(
        (await s.call('/petstore/v1/pets', { method: 'POST', body: { id: 9501, name: '' } })).status,
      ).toBe(201);
      expect(
        (await s.call('/petstore/v1/pets', { method: 'POST', body: { id: 9502, name: long } })).status,
      ).toBe(201);
      expect((await s.call('/petstore/v1/pets/9502')).json).toEqual({ id: 9502, name: long });
    });
  });

  it('unknown-token-fields: ignored, or refused', async () => {
    const body = (s: { running: { credentials: { clientId: string; clientSecret: string } } }) => ({
      client_id: s.running.credentials.clientId,
      client_secret: s.running.credentials.clientSecret,
      scope: 'all',
    });
    await withServer({}, async (s) =>
      expect((await s.call('/api/v1/auth/token', { method: 'POST', body: body(s) })).status).toBe(200),
    );
    await withServer({ choices: { 'unknown-token-fields': 'refuse' } }, async (s) => {
      const res = await s.call('/api/v1/auth/token', { method: 'POST', body: body(s) });
      expect(res.status).toBe(400);
      expect((res.json as { message: string }).message).toMatch(/unknown field "scope"/);
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
