// 429 handling of the suite's own traffic: Retry-After in both forms, bounded retries, bounded
// total wait, and probes that switch it off. Waits go through an injected sleep that records them.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, parseRetryAfter } from '../../src/client/index.ts';
import { json, startServer, type TestServer, testConfig } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const customers = { service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' } as const;
const NOW = Date.parse('2026-11-23T10:00:00Z');

/** Answers 429 (with the given Retry-After) `limited` times, then 200. */
async function limiter(limited: number, retryAfter: string | undefined) {
  let seen = 0;
  return startServer((_req, res) => {
    seen += 1;
    if (seen > limited) return json(res, 200, { ok: true });
    const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
    return json(res, 429, { code: 'TOO_MANY_REQUESTS', message: 'slow down' }, headers);
  });
}

function clientFor(origin: string, retry: Record<string, number> = {}) {
  const waits: number[] = [];
  const client = createApiClient(testConfig(origin), {
    retry: {
      ...retry,
      now: () => NOW,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
  return { client, waits };
}

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3000],
    ['0', 0],
    [' 12 ', 12000],
    ['Mon, 23 Nov 2026 10:00:05 GMT', 5000],
    ['Mon, 23 Nov 2026 09:59:00 GMT', 0],
  ])('%j -> %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([undefined, '', '-1', '1.5', 'soon', '2026-13-45'])('%j is unusable', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('429 retries', () => {
  it('honours Retry-After in delta-seconds', async () => {
    server = await limiter(2, '2');
    const { client, waits } = clientFor(server.origin);
    const res = await client.request(customers);
    expect(res.status).toBe(200);
    expect(waits).toEqual([2000, 2000]);
    expect(server.received).toHaveLength(3);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    server = await limiter(1, new Date(NOW + 7000).toUTCString());
    const { client, waits } = clientFor(server.origin);
    const res = await client.request(customers);
    expect(res.status).toBe(200);
    expect(waits).toEqual([7000]);
  });

  it('waits the default delay when Retry-After is missing', async () => {
    server = await limiter(1, undefined);
    const { client, waits } = clientFor(server.origin, { defaultDelayMs: 250 });
    expect((await client.request(customers)).status).toBe(200);
    expect(waits).toEqual([250]);
  });

  it('bounds the number of retries and then returns the 429', async () => {
    server = await limiter(100, '0');
    const { client, waits } = clientFor(server.origin, { maxRetries: 3 });
    const res = await client.request(customers);
    expect(res.status).toBe(429);
    expect(waits).toEqual([0, 0, 0]);
    expect(server.received).toHaveLength(4);
  });

  it('bounds the total wait: stops before a wait that would exceed it', async () => {
    server = await limiter(100, '4');
    const { client, waits } = clientFor(server.origin, { maxTotalWaitMs: 10_000, maxRetries: 10 });
    const res = await client.request(customers);
    expect(res.status).toBe(429);
    expect(waits).toEqual([4000, 4000]);
    expect(server.received).toHaveLength(3);
  });

  it('returns the 429 at once when Retry-After exceeds the whole budget', async () => {
    server = await limiter(100, '3600');
    const { client, waits } = clientFor(server.origin);
    const res = await client.request(customers);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('3600');
    expect(waits).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it('a probe with retryOn429: false sees the first 429', async () => {
    server = await limiter(1, '1');
    const { client, waits } = clientFor(server.origin);
    const res = await client.request({ ...customers, retryOn429: false });
    expect(res.status).toBe(429);
    expect(waits).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it('the default policy really waits and retries (Retry-After: 0)', async () => {
    server = await limiter(1, '0');
    const client = createApiClient(testConfig(server.origin));
    const res = await client.request(customers);
    expect(res.status).toBe(200);
    expect(server.received).toHaveLength(2);
    expect(client.recorder.exchanges().map((e) => e.status)).toEqual([429, 200]);
  });

  it('the token request is retried after a 429 as well', async () => {
    let tokenCalls = 0;
    server = await startServer((req, res) => {
      if (req.path === '/api/v1/auth/token') {
        tokenCalls += 1;
        if (tokenCalls === 1) return json(res, 429, { message: 'slow down' }, { 'retry-after': '1' });
        return json(res, 200, { access_token: 'fresh-1' });
      }
      return json(res, 200, { ok: true });
    });
    const { client, waits } = clientFor(server.origin);
    const res = await client.request({ service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' });
    expect(res.status).toBe(200);
    expect(waits).toEqual([1000]);
    expect(server.received.at(-1)?.headers.authorization).toBe('Bearer fresh-1');
  });
});
