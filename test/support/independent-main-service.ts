// A conformant server of the main service written apart from src/reference/, from the spec alone,
// making other choices wherever the spec is silent: other base paths, codes and messages, 401 for
// every refused credential, SESSION_EXPIRED as 419, 120 customers, a 400 (not the 422) for a
// page too large to read, error bodies without id and with the whole request path, a token answer
// with more fields. The suites must pass against it: no check may ask more than the spec shows.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const INDEPENDENT = {
  clientId: 'indep-client',
  clientSecret: 'Indep-Client-Secret-42',
  apiKeyId: 'indep-key',
  apiKeySecret: 'Indep-Key-Secret-77',
  pinnedApiKeyId: 'indep-pinned',
  pinnedApiKeySecret: 'Indep-Pinned-Secret-31',
  expiredToken: 'indep-expired-token-000',
};

const MAIN = '/svc/api';
const PETS = '/demo/v1';
const CUSTOMERS = Array.from({ length: 120 }, (_, i) => ({
  ref: `C-${1000 + i}`,
  label: `Customer ${i + 1}`,
}));
const PAGE_SIZE = 50;

export interface IndependentServer {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  close(): Promise<void>;
}

class Refusal extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  try {
    return JSON.parse(text);
  } catch {
    throw new Refusal(400, 'MALFORMED_BODY', 'The body is not JSON.');
  }
}

export async function startIndependentServer(): Promise<IndependentServer> {
  const tokens = new Set<string>();
  let issued = 0;

  /** Which credential the request carries, by the route's schemes; every refusal is a 401. */
  function authenticate(req: IncomingMessage, schemes: ('key' | 'bearer')[]): void {
    const id = req.headers['x-api-key-id'];
    const secret = req.headers['x-api-key-secret'];
    const authorization = req.headers.authorization;
    if (schemes.includes('key') && (id !== undefined || secret !== undefined)) {
      const known =
        (id === INDEPENDENT.apiKeyId && secret === INDEPENDENT.apiKeySecret) ||
        (id === INDEPENDENT.pinnedApiKeyId && secret === INDEPENDENT.pinnedApiKeySecret);
      if (!known) throw new Refusal(401, 'KEY_REJECTED', 'API key rejected.');
      // The pinned key belongs to 192.0.2.55; the socket's address decides, nothing the client says.
      if (id === INDEPENDENT.pinnedApiKeyId && req.socket.remoteAddress !== '192.0.2.55') {
        throw new Refusal(401, 'KEY_REJECTED', 'API key not allowed from this address.');
      }
      return;
    }
    if (schemes.includes('bearer') && authorization !== undefined) {
      const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
      if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length) {
        throw new Refusal(401, 'AUTH_REQUIRED', 'Use Authorization: Bearer <token>.');
      }
      if (token === INDEPENDENT.expiredToken) throw new Refusal(419, 'SESSION_EXPIRED', 'Session expired.');
      if (!tokens.has(token)) throw new Refusal(401, 'BAD_TOKEN', 'Unknown token.');
      return;
    }
    throw new Refusal(401, 'AUTH_REQUIRED', 'Authentication required.');
  }

  function customers(url: URL): unknown {
    const pages = Math.ceil(CUSTOMERS.length / PAGE_SIZE);
    const raw = url.searchParams.getAll('page');
    let page = 1;
    if (raw.length > 1 || (raw.length === 1 && !/^[0-9]+$/.test(raw[0] ?? ''))) {
      throw new Refusal(400, 'BAD_PAGE', 'page must be a positive whole number.');
    }
    if (raw.length === 1) {
      const value = Number(raw[0]);
      if (value < 1) throw new Refusal(400, 'BAD_PAGE', 'page must be a positive whole number.');
      // Past a signed 32-bit page it is not read at all: another 4xx, as the spec leaves open.
      if (value > 2 ** 31 - 1) throw new Refusal(400, 'PAGE_OUT_OF_RANGE', 'page is out of range.');
      page = value;
    }
    if (page > pages) {
      throw new Refusal(
        422,
        'VALIDATION_ERROR',
        `Requested page ${page} does not exist; the last page is ${pages}.`,
      );
    }
    const data = CUSTOMERS.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    return {
      pagination: {
        total_items: CUSTOMERS.length,
        showing_items: data.length,
        total_pages: pages,
        current_page: page,
        previous_page: page === 1 ? 1 : page - 1,
        next_page: page === pages ? pages : page + 1,
      },
      data,
      extra: { sorted_by: 'ref' },
    };
  }

  async function route(req: IncomingMessage, url: URL): Promise<{ status: number; body: unknown }> {
    const key = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
    switch (key) {
      case `POST ${MAIN}/v1/auth/token`: {
        const body = (await readBody(req)) as Record<string, unknown> | null;
        if (body?.client_id !== INDEPENDENT.clientId || body?.client_secret !== INDEPENDENT.clientSecret) {
          throw new Refusal(400, 'INVALID_CREDENTIALS', 'Client credentials are not valid.');
        }
        const token = `indep-${++issued}-${Math.random().toString(36).slice(2)}`;
        tokens.add(token);
        return {
          status: 200,
          body: { access_token: token, token_type: 'bearer', expires_in: 900, scope: 'all' },
        };
      }
      case `GET ${MAIN}/v1/customers`:
        authenticate(req, ['key', 'bearer']);
        return { status: 200, body: customers(url) };
      case `GET ${MAIN}/v1/user/me`:
        authenticate(req, ['bearer']);
        return { status: 200, body: { user_id: 'u-1', display_name: 'Independent User', roles: ['admin'] } };
      case `GET ${MAIN}/v1/feature-flags`:
        authenticate(req, ['bearer']);
        return { status: 200, body: [{ feature: 'exports', on: true }] };
      case `GET ${PETS}/pets`:
        return { status: 200, body: [{ id: 1, name: 'Rex', status: 'available' }] };
      default:
        throw new Refusal(404, 'NO_SUCH_ROUTE', 'No such route.');
    }
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    route(req, url)
      .then(({ status, body }) => send(res, status, body))
      .catch((error: unknown) => {
        const refusal = error instanceof Refusal ? error : new Refusal(500, 'INTERNAL', 'Internal error.');
        send(
          res,
          refusal.status,
          {
            code: refusal.code,
            message: refusal.message,
            status_code: refusal.status,
            timestamp: new Date().toISOString(),
            path: url.pathname,
            handled: refusal.status < 500,
            errors: [],
          },
          'application/problem+json',
        );
      });
  });
  // Idle connections outlive the client's (undici: 4 s), as the reference server's do: Node's 5 s
  // let a starved client (load 35) reuse one just as it closed, and the reset failed three checks.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBaseUrl: `http://127.0.0.1:${port}${MAIN}/`,
    petstoreBaseUrl: `http://127.0.0.1:${port}${PETS}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
