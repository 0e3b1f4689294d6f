// The HTTP layer: the error body on every error, unknown routes and methods, malformed and
// oversized input, and requests that are not even HTTP. Never a 5xx, never a crash.
import { connect, createServer } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { expectErrorBody, withServer } from './helpers.ts';

const PETS = '/petstore/v1/pets';

/** Writes raw bytes and reads until the server closes the connection. */
function raw(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

function parseRaw(text: string): { status: number; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

describe('errors the router answers', () => {
  it.each(['/', '/api/v1/nothing', '/api/v2/customers', '/petstore/v1/pets/1/toys', '/api/v1/customers/'])(
    'unknown route %s answers 404 with the error body',
    async (path) => {
      await withServer({}, async (s) => {
        expect(expectErrorBody(await s.call(path), 404, path).code).toBe('NOT_FOUND');
      });
    },
  );

  it('a known path with another method answers 405 with Allow and the error body', async () => {
    await withServer({}, async (s) => {
      const del = await s.call(PETS, { method: 'DELETE' });
      expect(expectErrorBody(del, 405, PETS).code).toBe('METHOD_NOT_ALLOWED');
      expect(del.headers.allow).toBe('GET, POST');
      const get = await s.call('/api/v1/auth/token');
      expectErrorBody(get, 405, '/api/v1/auth/token');
      expect(get.headers.allow).toBe('POST');
    });
  });

  it('every error carries an id, an ISO timestamp on the virtual clock and x-request-id', async () => {
    await withServer({}, async (s) => {
      s.control.advanceClock(86_400);
      const answer = await s.call('/api/v1/customers');
      const body = expectErrorBody(answer, 401, '/api/v1/customers');
      expect(body.id).toBe(answer.headers['x-request-id']);
      const stamped = Date.parse(body.timestamp);
      expect(stamped).toBeGreaterThan(Date.now() + 86_000_000);
    });
  });
});

describe('malformed and oversized input', () => {
  it.each([
    ['invalid JSON', '{"id": 1, "name": ', 'application/json', 400],
    ['JSON with a charset parameter but broken', '{', 'application/json; charset=utf-8', 400],
    ['no content-type', '{"id": 1, "name": "Rex"}', undefined, 415],
    ['text/plain', '{"id": 1, "name": "Rex"}', 'text/plain', 415],
  ])('POST /pets with %s answers %s... with the error body', async (_label, body, type, status) => {
    await withServer({}, async (s) => {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      expectErrorBody(await s.call(PETS, { method: 'POST', body, headers }), status, PETS);
    });
  });

  it('a 2 MB body answers 413 with the error body, and the server keeps serving', async () => {
    await withServer({}, async (s) => {
      const huge = JSON.stringify({ id: 1, name: 'x'.repeat(2 * 1024 * 1024) });
      const answer = await s.call(PETS, {
        method: 'POST',
        body: huge,
        headers: { 'content-type': 'application/json' },
      });
      expect(expectErrorBody(answer, 413, PETS).code).toBe('PAYLOAD_TOO_LARGE');
      expect((await s.call(`${PETS}/1`)).status).toBe(200);
    });
  });

  it('a 2 MB chunked body (no content-length) answers 413 too', async () => {
    await withServer({}, async (s) => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const res = await request(s.url(PETS), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Readable.from(Array.from({ length: 32 }, () => chunk)),
      });
      const text = await res.body.text();
      expect(res.statusCode).toBe(413);
      expect(JSON.parse(text)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status_code: 413 });
    });
  });

  it('a request line that is not HTTP answers 400 with the error body and closes', async () => {
    await withServer({}, async (s) => {
      const answer = parseRaw(await raw(s.origin, 'HELLO THERE\r\n\r\n'));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'BAD_REQUEST', status_code: 400, handled: true, errors: [] });
    });
  });

  it('oversized headers answer 431 with the error body', async () => {
    await withServer({}, async (s) => {
      const text = await raw(
        s.origin,
        `GET /api/v1/customers HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(parseRaw(text)).toMatchObject({
        status: 431,
        body: { code: 'HEADERS_TOO_LARGE', status_code: 431 },
      });
    });
  });

  it('a client that disconnects mid-body does not disturb the server', async () => {
    await withServer({}, async (s) => {
      const { hostname, port } = new URL(s.origin);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST ${PETS} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"id":`,
          );
          setImmediate(() => {
            socket.destroy();
            resolve();
          });
        });
      });
      expect((await s.call(`${PETS}/1`)).status).toBe(200);
    });
  });
});

// The Date header and an error body's timestamp come from one clock at one moment: the answer's
// making. Added latency is the network's, so a check moving the virtual clock meanwhile (the flag
// checks move it 61 s) must not set them a minute apart (REL-ERROR-TIMESTAMP-CLOCK failed on it).
describe('the Date header under added latency', () => {
  it('is the moment the answer was made, as the error timestamp is, whatever the clock does in transit', async () => {
    await withServer({ control: true, latencyMs: 1_000 }, async (s) => {
      const asked = request(`${s.running.apiBaseUrl}v1/feature-flags`);
      // Well inside the second of latency, even on a busy machine the answer is made by then.
      await new Promise((resolve) => setTimeout(resolve, 300));
      s.running.control.advanceClock(61);
      const answer = await asked;
      const body = (await answer.body.json()) as { timestamp: string };
      expect(answer.statusCode).toBe(401);
      const date = Date.parse(String(answer.headers.date));
      expect(Math.abs(date - Date.parse(body.timestamp))).toBeLessThan(2_000);
    });
  });
});

describe('a dual-stack listener (the mutation run listens on ::)', () => {
  it('names the IPv4 loopback in its addresses and sees an IPv4 caller as that address, not ::ffff:', async () => {
    const v6 = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once('error', () => done(false));
      probe.listen(0, '::1', () => probe.close(() => done(true)));
    });
    if (!v6) return; // no IPv6 loopback here: `::` is not a dual-stack listener to test
    const server = await startReferenceServer({ port: 0, host: '::', control: true });
    try {
      expect(server.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
      // Node reports an IPv4 caller of a `::` listener as ::ffff:127.0.0.1; the key pinned to
      // 127.0.0.1 is accepted only if the server takes the prefix off (KEY-03).
      const key = server.control.createApiKey({ pinnedAddress: '127.0.0.1' });
      const res = await request(`${server.apiBaseUrl}v1/customers`, {
        headers: { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret },
      });
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('names a place a client can reach for a listener on every IPv4 address, and its own address otherwise', async () => {
    for (const [host, named] of [
      ['0.0.0.0', '127.0.0.1'],
      ['127.0.0.1', '127.0.0.1'],
    ] as const) {
      const server = await startReferenceServer({ port: 0, host });
      try {
        expect(server.apiBaseUrl).toMatch(new RegExp(`^http://${named.replace(/\./g, '\\.')}:\\d+/api/$`));
        const res = await request(`${server.apiBaseUrl}v1/feature-flags`);
        await res.body.dump();
        expect(res.statusCode).toBe(401);
      } finally {
        await server.close();
      }
    }
  });
});
