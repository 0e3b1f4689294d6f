// What one exchange does on the wire: URLs, auth headers, bodies, redirects left alone, and the
// one-line errors of a target that cannot be reached or answers badly.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, TransportError } from '../../src/client/index.ts';
import { json, SECRETS, startServer, type TestServer, testConfig } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const customers = { service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' } as const;

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  for (const secret of Object.values(SECRETS)) expect(message).not.toContain(secret);
  return error as TransportError;
}

/** A port nothing listens on: bound once, then released. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('requests', () => {
  it('resolves paths against both service bases and adds the query', async () => {
    server = await startServer((_req, res) => json(res, 200, []));
    const client = createApiClient(testConfig(server.origin));
    await client.request({ ...customers, query: { page: 2, size: undefined, flag: true } });
    await client.request({
      service: 'petstore',
      method: 'GET',
      path: 'pets',
      query: { limit: 5 },
      auth: 'none',
    });
    await client.request({ service: 'petstore', method: 'GET', path: 'pets/7', auth: 'none' });
    expect(server.received.map((r) => r.path)).toEqual([
      '/api/v1/customers?page=2&flag=true',
      '/petstore/v1/pets?limit=5',
      '/petstore/v1/pets/7',
    ]);
  });

  it('sends the API key scheme, the bearer scheme, no credentials, or custom headers as asked', async () => {
    server = await startServer((req, res) =>
      req.path === '/api/v1/auth/token' ? json(res, 200, { access_token: 'tok-1' }) : json(res, 200, {}),
    );
    const client = createApiClient(testConfig(server.origin));
    await client.request(customers);
    await client.request({ ...customers, auth: 'bearer' });
    await client.request({ ...customers, auth: 'none' });
    await client.request({
      ...customers,
      auth: { headers: { 'X-Api-Key-Id': 'wrong', 'x-api-key-secret': 'nope' } },
    });
    const [key, , bearer, none, custom] = server.received;
    expect(key?.headers['x-api-key-id']).toBe('test-key');
    expect(key?.headers['x-api-key-secret']).toBe(SECRETS.apiKeySecret);
    expect(key?.headers.authorization).toBeUndefined();
    expect(bearer?.headers.authorization).toBe('Bearer tok-1');
    expect(bearer?.headers['x-api-key-id']).toBeUndefined();
    expect(none?.headers.authorization).toBeUndefined();
    expect(none?.headers['x-api-key-secret']).toBeUndefined();
    expect(custom?.headers['x-api-key-id']).toBe('wrong');
    expect(custom?.headers['x-api-key-secret']).toBe('nope');
  });

  it('sends JSON bodies and raw bodies with their content type', async () => {
    server = await startServer((_req, res) => json(res, 201, {}));
    const client = createApiClient(testConfig(server.origin));
    await client.request({
      service: 'petstore',
      method: 'POST',
      path: 'pets',
      auth: 'none',
      body: { id: 1, name: 'Rex' },
    });
    await client.request({
      service: 'petstore',
      method: 'POST',
      path: 'pets',
      auth: 'none',
      rawBody: '{"id": 1,',
      contentType: 'application/json',
    });
    expect(server.received[0]?.body).toBe('{"id":1,"name":"Rex"}');
    expect(server.received[0]?.headers['content-type']).toBe('application/json');
    expect(server.received[1]?.body).toBe('{"id": 1,');
    expect(server.received[1]?.headers['content-type']).toBe('application/json');
  });

  it('returns status, lower-case headers, text and parsed JSON', async () => {
    server = await startServer((_req, res) => json(res, 200, { a: 1 }, { 'X-Custom': 'yes' }));
    const res = await createApiClient(testConfig(server.origin)).request(customers);
    expect(res.status).toBe(200);
    expect(res.headers['x-custom']).toBe('yes');
    expect(res.text).toBe('{"a":1}');
    expect(res.body).toEqual({ a: 1 });
    expect(res.isJson).toBe(true);
    expect(res.url).toBe(`${server.origin}/api/v1/customers`);
  });

  it('does not follow redirects: the 3xx is returned and recorded', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const client = createApiClient(testConfig(server.origin));
    const res = await client.request(customers);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/elsewhere');
    expect(server.received).toHaveLength(1);
    expect(client.recorder.exchanges()[0]?.responseHeaders?.location).toBe('/elsewhere');
  });

  it('sends nothing to another origin, wherever the path came from (common/origin.ts)', async () => {
    server = await startServer((_req, res) => json(res, 200, { access_token: 'token-from-the-target' }));
    const elsewhere = await startServer((_req, res) => json(res, 200, {}));
    try {
      const client = createApiClient(testConfig(server.origin));
      for (const path of [
        `\\\\127.0.0.1:${elsewhere.port}/steal`,
        `http://127.0.0.1:${elsewhere.port}/steal`,
      ]) {
        const error = await failure(client.request({ ...customers, path }));
        expect(error.message, path).toMatch(/^refused to send a request to /);
      }
      // A token answer cannot come from elsewhere either: the token route is the configured one.
      const error = await failure(
        client.request({
          service: 'main',
          method: 'GET',
          path: `http://127.0.0.1:${elsewhere.port}/x`,
          auth: 'bearer',
        }),
      );
      expect(error.message).toMatch(/refused to send/);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('non-JSON bodies', () => {
  it('a body that is not JSON gives body undefined', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const res = await createApiClient(testConfig(server.origin)).request(customers);
    expect(res.isJson).toBe(false);
    expect(res.body).toBeUndefined();
    expect(res.text).toContain('Bad gateway');
  });

  it('an empty body is not JSON either', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    const res = await createApiClient(testConfig(server.origin)).request(customers);
    expect(res.isJson).toBe(false);
    expect(res.body).toBeUndefined();
  });
});

describe('transport errors', () => {
  it('times out when no answer comes', async () => {
    server = await startServer(() => {
      // never answers
    });
    const client = createApiClient(testConfig(server.origin, { requestTimeoutMs: 200 }));
    const error = await failure(client.request(customers));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(
      `timed out: no response within 200 ms from GET ${server.origin}/api/v1/customers`,
    );
    expect(client.recorder.exchanges()[0]?.error).toBe(error.message);
  });

  it("does not blame the target for the client's own stall: an answer already waiting is read", async () => {
    // The server runs in another process, so it answers while this one is blocked.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `require('node:http').createServer((q, s) => setTimeout(() => { s.setHeader('content-type', 'application/json'); s.end('{"ok":true}'); }, 50)).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const origin = `http://127.0.0.1:${Number(line.toString().trim())}`;
      const client = createApiClient(testConfig(origin, { requestTimeoutMs: 200 }));
      const answer = client.request(customers);
      // Block this event loop past the timeout once the request is on its way: the answer arrives
      // meanwhile. Blocked in the check phase, the next turn runs the overdue timer before it reads
      // the socket.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = Date.now() + 600;
          while (Date.now() < until) {
            // busy: a synchronous step of the client's own
          }
          resolve();
        }),
      );
      const res = await answer;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    } finally {
      child.kill();
    }
  });

  it('times out when the body stalls after the headers', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const client = createApiClient(testConfig(server.origin, { requestTimeoutMs: 200 }));
    const error = await failure(client.request(customers));
    expect(error.kind).toBe('timeout');
  });

  it('names a refused connection', async () => {
    const port = await freePort();
    const client = createApiClient(testConfig(`http://127.0.0.1:${port}`));
    const error = await failure(client.request(customers));
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(`connection refused by 127.0.0.1:${port}`);
  });

  it('names a DNS failure (a .invalid host resolves nowhere)', async () => {
    const client = createApiClient(testConfig('http://conformance-target.invalid'));
    const error = await failure(client.request(customers));
    expect(error.kind).toBe('dns');
    expect(error.message).toBe('cannot resolve host conformance-target.invalid (DNS failure)');
  });

  it('names a connection reset', async () => {
    server = await startServer((_req, res) => {
      res.socket?.destroy();
    });
    const client = createApiClient(testConfig(server.origin));
    const error = await failure(client.request(customers));
    expect(error.kind).toBe('reset');
    expect(error.message).toBe(
      `connection to 127.0.0.1:${server.port} reset during GET ${server.origin}/api/v1/customers`,
    );
  });

  it('refuses a body larger than the cap', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(4096)}"`);
    });
    const client = createApiClient(testConfig(server.origin), { maxBodyBytes: 1024 });
    const error = await failure(client.request(customers));
    expect(error.kind).toBe('too-large');
    expect(error.message).toBe(
      `response from GET ${server.origin}/api/v1/customers is larger than 1024 bytes`,
    );
  });

  it('the default cap is 5 MiB', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('y'.repeat(5 * 1024 * 1024 + 1));
    });
    const error = await failure(createApiClient(testConfig(server.origin)).request(customers));
    expect(error.kind).toBe('too-large');
    expect(error.message).toContain('larger than 5 MiB');
  });
});
