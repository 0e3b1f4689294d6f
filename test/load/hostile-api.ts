// A hostile target for the k6 scripts: enough of the API for them to run (tokens, the data routes,
// the pet list), misbehaving in one way per kind, and echoing every secret it receives where it can
// (a redirect's Location, error bodies), so a leak would show. Tests and the memory benchmark use it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const K6_HOSTILE_KINDS = [
  /** Every data route answers 302 to another loopback address (the listener on 127.0.0.2). */
  'redirect-other-address',
  /** Every data route answers 302 to the same host on another port. */
  'redirect-other-port',
  /** The token route answers 307 to the listener (which hands out a token of its own). */
  'token-307',
  /** Every data route answers 200 with a huge body (hugeBytes). */
  'huge-body',
  /** Every data route answers 200 with a body that never ends. */
  'endless-body',
] as const;
export type K6HostileKind = (typeof K6_HOSTILE_KINDS)[number];

export interface K6HostileTarget {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  /** Tokens this target handed out (secrets too: they must not appear in any output). */
  issuedTokens: string[];
  requests(): number;
  /** Requests that carried a Cookie header (every answer sets one: a client keeping cookies sends them back). */
  cookiesReturned(): number;
  close(): Promise<void>;
}

export interface K6HostileOptions {
  /** Where redirects point (the listener's origin). */
  elsewhere?: string;
  /** Size of the huge body (default 200 MB). */
  hugeBytes?: number;
}

const CHUNK = Buffer.alloc(1 << 16, 'x');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Writes `bytes` (or forever) of a JSON-looking body, respecting back-pressure. */
function stream(res: ServerResponse, bytes: number | undefined): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(bytes === undefined ? {} : { 'content-length': String(bytes) }),
  });
  let left = bytes ?? Number.POSITIVE_INFINITY;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (left <= 0) res.end();
  };
  res.on('close', () => {
    left = 0;
  });
  pump();
}

export async function startK6HostileTarget(
  kind: K6HostileKind,
  options: K6HostileOptions = {},
): Promise<K6HostileTarget> {
  const issuedTokens: string[] = [];
  let requests = 0;
  let cookiesReturned = 0;
  const sockets = new Set<Socket>();
  const elsewhere = options.elsewhere ?? 'http://127.0.0.2:9';
  const hugeBytes = options.hugeBytes ?? 200 * 1024 * 1024;

  const server = createServer(async (req, res) => {
    requests += 1;
    if (req.headers.cookie !== undefined) cookiesReturned += 1;
    // Every answer sets a cookie carrying what the caller sent: a kept jar would send it back.
    res.setHeader(
      'set-cookie',
      `hostile=${encodeURIComponent(String(req.headers['x-api-key-secret'] ?? 'x'))}; Path=/`,
    );
    const body = await readBody(req);
    const url = req.url ?? '/';
    // Everything it knows of the caller, to be echoed back: the secrets it was sent.
    const known = [
      String(req.headers['x-api-key-secret'] ?? ''),
      String(req.headers.authorization ?? ''),
      body,
    ].join('|');

    if (req.method === 'POST' && url.startsWith('/api/v1/auth/token')) {
      if (kind === 'token-307') {
        res.writeHead(307, { location: `${elsewhere}/api/v1/auth/token?echo=${encodeURIComponent(known)}` });
        res.end(JSON.stringify({ code: 'MOVED', message: `moved; you sent ${known}` }));
        return;
      }
      const token = `hostile-issued-token-${issuedTokens.length}-${Math.random().toString(36).slice(2, 12)}`;
      issuedTokens.push(token);
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `session=${token}; Path=/` });
      res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
      return;
    }

    if (kind === 'redirect-other-address' || kind === 'redirect-other-port') {
      res.writeHead(302, {
        location: `${elsewhere}${url}${url.includes('?') ? '&' : '?'}echo=${encodeURIComponent(known)}`,
        'content-type': 'application/json',
      });
      res.end(JSON.stringify({ code: 'FOUND', message: `go there; you sent ${known}` }));
      return;
    }
    if (kind === 'huge-body') return stream(res, hugeBytes);
    if (kind === 'endless-body') return stream(res, undefined);

    // token-307: the data routes behave (nothing gets that far).
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        data: [],
        pagination: { page: 1, page_size: 50, total_items: 0, total_pages: 1 },
        flags: {},
      }),
    );
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    apiBaseUrl: `${origin}/api/`,
    petstoreBaseUrl: `${origin}/petstore/v1`,
    issuedTokens,
    requests: () => requests,
    cookiesReturned: () => cookiesReturned,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
