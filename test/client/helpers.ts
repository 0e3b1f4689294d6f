// Test helpers: a real node:http server on 127.0.0.1 with a scripted handler, and a TargetConfig
// pointing at it with recognisable secrets (so leaks are easy to find).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TargetConfig } from '../../src/config/index.ts';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Received, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  origin: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(got);
      void Promise.resolve(handler(got, res)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export const SECRETS = {
  clientSecret: 'cs-7f3a-client-secret-value',
  apiKeySecret: 'aks-91b2-api-key-secret-value',
  pinnedSecret: 'pks-55c0-pinned-secret-value',
  expiredToken: 'expired-token-0c1d2e3f',
};

export function testConfig(origin: string, overrides: Partial<TargetConfig> = {}): TargetConfig {
  return {
    target: 'staging',
    apiBaseUrl: `${origin}/api/`,
    petstoreBaseUrl: `${origin}/petstore/v1`,
    credentials: {
      clientId: 'test-client',
      clientSecret: SECRETS.clientSecret,
      apiKeyId: 'test-key',
      apiKeySecret: SECRETS.apiKeySecret,
      pinnedApiKey: { id: 'pinned-key', secret: SECRETS.pinnedSecret },
    },
    expiredAccessToken: SECRETS.expiredToken,
    allowProductionWrites: false,
    requestTimeoutMs: 5_000,
    strict: false,
    slow: true,
    ...overrides,
  };
}

export const sessionExpired = (message = 'session expired') => ({
  code: 'SESSION_EXPIRED',
  message,
  status_code: 401,
});
