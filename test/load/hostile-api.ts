// A hostile target for the k6 scripts: enough of the API for them to run (tokens, the data routes,
// the pet list), misbehaving in one way per kind, and echoing every secret it receives where it can
// (a redirect's Location, error bodies), so a leak would show. Tests and the memory benchmark use it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

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
  /** Every data route answers 200 with a gzip body declared small that inflates to hugeBytes. */
  'gzip-body',
  // The bodies the scripts must read, each hostile in the three ways above:
  /** The token route answers 200 with a huge, endless or gzip-bomb body. */
  'token-huge',
  'token-endless',
  'token-gzip',
  /** Every data route answers 401 (an error that may be SESSION_EXPIRED) with such a body. */
  'error-huge',
  'error-endless',
  'error-gzip',
  /** Every data route answers 429 (Retry-After: 1, the rate-limit probe's polls) with such a body. */
  'limited-huge',
  'limited-endless',
  'limited-gzip',
  /**
   * The residual the harness owns: every data route answers 401, with a small declared error body
   * on a request's odd asks and a huge body with no length on its even ones (per URL and token), so
   * the ask that shows the size and the ask that reads differ.
   */
  'error-switch',
] as const;
export type K6HostileKind = (typeof K6_HOSTILE_KINDS)[number];

/** How a kind's answers misbehave: which route, which status, which body (undefined: not hostile). */
export function hostility(
  kind: K6HostileKind,
): { route: 'token' | 'data'; status: number; body: 'huge' | 'endless' | 'gzip' } | undefined {
  const bodies = { huge: 'huge', endless: 'endless', gzip: 'gzip' } as const;
  const match = /^(token|error|limited|huge|endless|gzip)-(huge|endless|gzip|body)$/.exec(kind);
  if (!match) return undefined;
  const [, where, what] = match as unknown as [string, string, string];
  if (what === 'body') return { route: 'data', status: 200, body: bodies[where as keyof typeof bodies] };
  const status = where === 'error' ? 401 : where === 'limited' ? 429 : 200;
  return { route: where === 'token' ? 'token' : 'data', status, body: bodies[what as keyof typeof bodies] };
}

export interface K6HostileTarget {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  /** Tokens this target handed out (secrets too: they must not appear in any output). */
  issuedTokens: string[];
  requests(): number;
  /** Requests that carried a Cookie header (every answer sets one: a client keeping cookies sends them back). */
  cookiesReturned(): number;
  /** Requests that did not ask for identity alone (Accept-Encoding), e.g. none or gzip. */
  codingsAsked(): number;
  close(): Promise<void>;
}

export interface K6HostileOptions {
  /** Where redirects point (the listener's origin). */
  elsewhere?: string;
  /** Size of the huge body, and of the gzip bomb once inflated (default 200 MB). */
  hugeBytes?: number;
  /** With a token kind: how many token asks are answered well first (2: the setup's ask and read). */
  goodTokenAsks?: number;
}

const CHUNK = Buffer.alloc(1 << 16, 'x');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** A small JSON answer that declares its length, as most servers do for one written at once. */
function reply(res: ServerResponse, status: number, body: unknown, more: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...more,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const bombs = new Map<number, Buffer>();
/** A gzip body of `bytes` zeros once inflated: about a thousandth of that on the wire. */
function gzipBomb(bytes: number): Buffer {
  let bomb = bombs.get(bytes);
  if (!bomb) {
    bomb = gzipSync(Buffer.alloc(bytes, '0'), { level: 9 });
    bombs.set(bytes, bomb);
  }
  return bomb;
}

/** Writes `bytes` (or forever) of a JSON-looking body, respecting back-pressure. */
function stream(
  res: ServerResponse,
  bytes: number | undefined,
  status = 200,
  more: Record<string, string> = {},
  /** Sends `bytes` without declaring them (chunked). */
  undeclared = false,
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...more,
    ...(bytes === undefined || undeclared ? {} : { 'content-length': String(bytes) }),
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
  let tokenAsks = 0;
  const switched = new Map<string, number>();
  let codingsAsked = 0;
  const sockets = new Set<Socket>();
  const elsewhere = options.elsewhere ?? 'http://127.0.0.2:9';
  const hugeBytes = options.hugeBytes ?? 200 * 1024 * 1024;

  // The bomb is made before the first request (compressing takes a second or two).
  if (hostility(kind)?.body === 'gzip') gzipBomb(hugeBytes);
  const server = createServer(async (req, res) => {
    requests += 1;
    if (req.headers.cookie !== undefined) cookiesReturned += 1;
    if (req.headers['accept-encoding'] !== 'identity') codingsAsked += 1;
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

    const hostile = hostility(kind);
    const isToken = req.method === 'POST' && url.startsWith('/api/v1/auth/token');
    // The first goodTokenAsks token asks are answered well (setup's), the users' own then misbehave.
    const spared = isToken && ++tokenAsks <= (options.goodTokenAsks ?? 0);
    if (hostile && !spared && (hostile.route === 'token') === isToken) {
      // Every answer a client must read misbehaves: huge (declared), endless (no length), or a gzip
      // bomb (declared small, sent coded though identity was asked).
      const more: Record<string, string> = hostile.status === 429 ? { 'retry-after': '1' } : {};
      if (hostile.body === 'huge') return stream(res, hugeBytes, hostile.status, more);
      if (hostile.body === 'endless') return stream(res, undefined, hostile.status, more);
      const bomb = gzipBomb(hugeBytes);
      res.writeHead(hostile.status, {
        ...more,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      res.end(bomb);
      return;
    }

    if (isToken) {
      if (kind === 'token-307') {
        return reply(
          res,
          307,
          { code: 'MOVED', message: `moved; you sent ${known}` },
          {
            location: `${elsewhere}/api/v1/auth/token?echo=${encodeURIComponent(known)}`,
          },
        );
      }
      const token = `hostile-issued-token-${issuedTokens.length}-${Math.random().toString(36).slice(2, 12)}`;
      issuedTokens.push(token);
      return reply(
        res,
        200,
        { access_token: token, token_type: 'Bearer', expires_in: 3600 },
        { 'set-cookie': `session=${token}; Path=/` },
      );
    }

    if (kind === 'redirect-other-address' || kind === 'redirect-other-port') {
      return reply(
        res,
        302,
        { code: 'FOUND', message: `go there; you sent ${known}` },
        {
          location: `${elsewhere}${url}${url.includes('?') ? '&' : '?'}echo=${encodeURIComponent(known)}`,
        },
      );
    }
    if (kind === 'error-switch') {
      const key = `${url} ${String(req.headers.authorization)}`;
      const asks = (switched.get(key) ?? 0) + 1;
      switched.set(key, asks);
      if (asks % 2 === 0) return stream(res, hugeBytes, 401, {}, true);
      return reply(res, 401, { code: 'UNAUTHORIZED', message: 'no', status_code: 401 });
    }
    // token-307 and the token kinds: the data routes behave.
    reply(res, 200, {
      data: [],
      pagination: { page: 1, page_size: 50, total_items: 0, total_pages: 1 },
      flags: {},
    });
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
    codingsAsked: () => codingsAsked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
