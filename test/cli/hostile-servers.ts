// Hostile targets: small local servers that misbehave in one way each, the way broken
// environments do. Each gives the base addresses a configuration would name.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HOSTILE_KINDS = [
  'refused',
  'dns-failure',
  'tls-self-signed',
  'never-answers',
  'reset-mid-body',
  'truncated-json',
  'non-json-200',
  'html-error-page',
  '5xx-storm',
  'ten-megabyte-body',
  'redirect-loop',
  '429-storm',
] as const;

let tenMegabyteBody: Buffer | undefined;
// Built once: every check's request gets the same 10 MB, and building it each time costs seconds.
function tenMegabytes(): Buffer {
  tenMegabyteBody ??= Buffer.from(`{"data": "${'x'.repeat(TEN_MB)}"}`);
  return tenMegabyteBody;
}

export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface HostileTarget {
  kind: HostileKind;
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  /** Requests the target received (0 for targets nothing reaches). */
  requests(): number;
  close(): Promise<void>;
}

type Respond = (req: IncomingMessage, res: ServerResponse) => void;

const TEN_MB = 10 * 1024 * 1024;

const RESPONDERS: Partial<Record<HostileKind, Respond>> = {
  'never-answers': () => {
    // Accepts the request and says nothing, ever.
  },
  'reset-mid-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"pagination": {"total_items": 1');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  'truncated-json': (_req, res) => {
    const body = '{"pagination": {"total_items": 137, "showing_items": 50, "data": [';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  },
  'non-json-200': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('OK');
  },
  'html-error-page': (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
  },
  '5xx-storm': (req, res) => {
    const status = [500, 502, 503, 504][(req.url?.length ?? 0) % 4] ?? 500;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'upstream exploded' }));
  },
  'ten-megabyte-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(tenMegabytes());
  },
  'redirect-loop': (req, res) => {
    res.writeHead(302, { location: req.url ?? '/' });
    res.end();
  },
  '429-storm': (_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '86400' });
    res.end(
      JSON.stringify({
        code: 'RATE_LIMITED',
        message: 'come back tomorrow',
        status_code: 429,
        timestamp: new Date().toISOString(),
        path: '/',
        handled: true,
      }),
    );
  },
};

function bases(origin: string) {
  return { apiBaseUrl: `${origin}/api/`, petstoreBaseUrl: `${origin}/petstore/v1` };
}

async function listen(server: Server, kind: HostileKind, scheme: 'http' | 'https'): Promise<HostileTarget> {
  let requests = 0;
  const sockets = new Set<Socket>();
  server.on('request', () => {
    requests += 1;
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kind,
    ...bases(`${scheme}://127.0.0.1:${port}`),
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A self-signed certificate for 127.0.0.1, made with openssl (undefined where it is missing). */
export function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-tls-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'].concat([
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHostileTarget(kind: HostileKind): Promise<HostileTarget> {
  if (kind === 'ten-megabyte-body') tenMegabytes();
  if (kind === 'dns-failure') {
    // .invalid never resolves (RFC 6761).
    return { kind, ...bases('http://conformance-target.invalid'), requests: () => 0, close: async () => {} };
  }
  if (kind === 'refused') {
    // A port that was just free: nothing listens there.
    const probe = await listen(createServer(), kind, 'http');
    await probe.close();
    return { ...probe, requests: () => 0, close: async () => {} };
  }
  if (kind === 'tls-self-signed') {
    const tls = selfSignedCertificate();
    if (!tls) throw new Error('openssl is needed to make a self-signed certificate');
    return listen(
      createTlsServer(tls, (_req, res) => res.end('{}')),
      kind,
      'https',
    );
  }
  const respond = RESPONDERS[kind];
  if (!respond) throw new Error(`no responder for ${kind}`);
  return listen(createServer(respond), kind, 'http');
}
