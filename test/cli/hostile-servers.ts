// Hostile targets: small local servers that misbehave in one way each, the way broken
// environments do. Each gives the base addresses a configuration would name.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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

// --- Targets whose words are the attack (issue 22: text from the target is data) ---------------
// An echoing target knows the run's secrets (it was given them, or a debug build prints them) and
// puts them, terminal escape sequences and GitHub workflow commands into every answer: error
// bodies, pet names, pet ids. The checks fail against it, so its words reach every report.

export const ECHO_KINDS = ['echoes-everything', 'huge-pet-name', 'refuses-setup-in-escapes'] as const;
export type EchoKind = (typeof ECHO_KINDS)[number];

/** What a terminal would run or draw: clipboard write, hyperlink, window title, screen clear, C1 CSI. */
export const ESCAPES = [
  '\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  '\u001b]8;;http://127.0.0.9/\u001b\\click here\u001b]8;;\u001b\\',
  '\u001b]0;pwned title\u0007',
  '\u001b[2J\u001b[H\u001b[31m',
  '\u009b31m',
].join('');

/** Lines the GitHub Actions runner would obey if printed at the start of a line. */
export const WORKFLOW_COMMANDS =
  '\n::add-mask::exit\n::error file=README.md,line=1::pwned\n::stop-commands::x\n##[error]old form\n';

/** Pet ids a shell would act on if a command quoted them wrongly. */
export const HOSTILE_IDS = [
  "o'neil",
  'back`touch /tmp/sinks-pwned-backtick`tick',
  '$(touch /tmp/sinks-pwned-subst)',
  'new\nline; touch /tmp/sinks-pwned-newline',
];

export interface EchoingTarget {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  /** The access token it issues: a secret of the run too. */
  token: string;
  close(): Promise<void>;
}

const HUGE_NAME = 4 * 1024 * 1024;

export async function startEchoingTarget(kind: EchoKind, secrets: readonly string[]): Promise<EchoingTarget> {
  const token = `tok${randomBytes(12).toString('hex')}`;
  const known = [...secrets, token];
  // The secrets first: a cut near the start of a body (a reason's 120 characters) splits one of them.
  const words = (heard: string) =>
    `${known.join(' ')} ${ESCAPES} heard: ${heard} password=x"y \`id\` $(id)${WORKFLOW_COMMANDS}`;
  const huge = kind === 'huge-pet-name' ? `${known.join(' ')}${'n'.repeat(HUGE_NAME)}${known.join(' ')}` : '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const heard = `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${Buffer.concat(chunks).toString()}`;
      const say = words(heard);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-echo': known.join(' ') });
        res.end(JSON.stringify(body));
      };
      const path = req.url ?? '/';
      if (path.startsWith('/api/v1/auth/token') && req.method === 'POST') {
        if (kind === 'refuses-setup-in-escapes') return json(401, { code: say, message: say });
        return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      }
      if (path.startsWith('/petstore/v1/pets') && req.method === 'GET' && !/\/pets\/./.test(path)) {
        const pets = HOSTILE_IDS.map((id, i) => ({
          id,
          name: i === 0 && huge ? huge : say,
          tag: say,
          status: say,
        }));
        return json(200, pets);
      }
      // Everything else: an error body made of the target's words, as statuses vary; some of them
      // not even JSON (a check then quotes the body itself).
      const status = [400, 404, 500, 422][path.length % 4] ?? 400;
      if (path.length % 3 === 0) {
        res.writeHead(status, { 'content-type': 'text/plain' });
        return res.end(say);
      }
      return json(status, { code: say, message: say, status_code: status, timestamp: say, path: say });
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...bases(`http://127.0.0.1:${port}`),
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
