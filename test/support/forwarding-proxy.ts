// A loopback proxy in front of a test server: it reads each request whole, lets the test see it,
// forwards it (unchanged, or its answer's body rewritten), and lets the test act once the answer's head is back (before the client
// has it). The tests that watch requests arrive or move the server's clock between them share it.
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ForwardingProxy {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export async function startForwardingProxy(
  upstreamBase: string,
  hooks: {
    onRequest?: (seen: ProxiedRequest) => void;
    onAnswer?: (seen: ProxiedRequest) => void;
    /** The path (and query) to ask upstream instead of the one asked. */
    upstreamPath?: (seen: ProxiedRequest) => string;
    /** Rewrites an answer's body (read whole); its Content-Length follows. */
    rewrite?: (
      body: string,
      status: number,
      seen: ProxiedRequest,
    ) => string | { status: number; body: string };
  } = {},
): Promise<ForwardingProxy> {
  const upstream = new URL(upstreamBase);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: body.toString(),
      };
      hooks.onRequest?.(seen);
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: hooks.upstreamPath?.(seen) ?? req.url,
          headers: req.headers,
        },
        (answer) => {
          hooks.onAnswer?.(seen);
          answer.on('error', () => res.destroy());
          const { rewrite } = hooks;
          if (!rewrite) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const status = answer.statusCode ?? 502;
            const out = rewrite(Buffer.concat(parts).toString(), status, seen);
            const { status: to, body: text } = typeof out === 'string' ? { status, body: out } : out;
            const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
            res.writeHead(to, {
              ...headers,
              'content-length': Buffer.byteLength(text),
            });
            res.end(text);
          });
        },
      );
      // The upstream server closed while a request was in flight (a test ending, its run killed):
      // the client sees its connection end, and no error escapes into the test process.
      out.on('error', () => {
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      });
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The environment of a conformance run against a reference server reached through a proxy at
 * `origin`, as a staging target (no control API, slow checks off), writing its reports to `dir`.
 */
export function stagingThrough(
  origin: string,
  credentials: { clientId: string; clientSecret: string; apiKeyId: string; apiKeySecret: string },
  dir: string,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    FORCE_COLOR: '0',
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: `${origin}/api/`,
    PETSTORE_BASE_URL: `${origin}/petstore/v1`,
    CLIENT_ID: credentials.clientId,
    CLIENT_SECRET: credentials.clientSecret,
    API_KEY_ID: credentials.apiKeyId,
    API_KEY_SECRET: credentials.apiKeySecret,
    CONFORMANCE_SLOW: '0',
    CONFORMANCE_REPORTS_DIR: dir,
  };
}
