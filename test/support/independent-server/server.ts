// Starts the independent server: both interfaces on one loopback port, under base addresses of
// its own (/platform/api/ and /demo/v1). No control API: tests configure it by its options only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Credentials } from './credentials.ts';
import { sendError } from './error-body.ts';
import { MainService } from './main-service.ts';
import { DEFAULT_OPTIONS, type IndependentOptions } from './options.ts';
import { PetStore } from './pets.ts';

const API_PREFIX = '/platform/api';
const PET_PREFIX = '/demo/v1';

export interface RunningIndependentServer {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKeyId: string;
  apiKeySecret: string;
  pinnedKeyId: string;
  pinnedKeySecret: string;
  expiredAccessToken: string;
  disabledFeatureRoute: string | undefined;
  options: IndependentOptions;
  close(): Promise<void>;
}

export async function startIndependentServer(
  change: Partial<IndependentOptions> = {},
): Promise<RunningIndependentServer> {
  const options: IndependentOptions = { ...DEFAULT_OPTIONS, ...change };
  const credentials = new Credentials(options.tokenTtlSeconds, options.pinnedIp);
  const main = new MainService(options, credentials);
  const pets = new PetStore(options);
  pets.keyOk = (req) => {
    const id = req.headers['x-api-key-id'];
    const secret = req.headers['x-api-key-secret'];
    return (
      typeof id === 'string' && typeof secret === 'string' && credentials.findKey(id, secret) !== undefined
    );
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://independent.invalid');
    const path = url.pathname;
    const work = path.startsWith(`${API_PREFIX}/`)
      ? main.handle(req, res, path.slice(API_PREFIX.length), url)
      : path.startsWith(`${PET_PREFIX}/`)
        ? pets.handle(req, res, path.slice(PET_PREFIX.length), url)
        : Promise.resolve(
            sendError(
              res,
              options,
              { route: path, requestPath: path },
              {
                status: 404,
                code: 'NOT_FOUND',
                message: 'nothing is served here',
              },
            ),
          );
    work.catch(() => {
      if (!res.headersSent) {
        sendError(
          res,
          options,
          { route: path, requestPath: path },
          {
            status: 500,
            code: 'INTERNAL_ERROR',
            message: 'internal error',
          },
        );
      } else res.destroy();
    });
  });
  // Idle connections outlive the client's (undici: 4 s), as the reference server's do: Node's 5 s
  // let a starved client (load 35) reuse one just as it closed, and the reset failed three checks.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    apiBaseUrl: `${origin}${API_PREFIX}/`,
    petstoreBaseUrl: `${origin}${PET_PREFIX}`,
    clientId: credentials.client.clientId,
    clientSecret: credentials.client.clientSecret,
    apiKeyId: credentials.apiKey.keyId,
    apiKeySecret: credentials.apiKey.keySecret,
    pinnedKeyId: credentials.pinnedKey.keyId,
    pinnedKeySecret: credentials.pinnedKey.keySecret,
    expiredAccessToken: credentials.issueExpired(credentials.client.userId),
    disabledFeatureRoute: Object.keys(options.disabledFeatures)[0],
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
