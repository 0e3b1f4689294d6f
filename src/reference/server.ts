// The HTTP layer: node:http, no framework, so malformed input, edge statuses and headers are fully
// in our hands. Every request ends in a reply or the error body; nothing a client sends can crash
// the process or produce an unplanned 500.
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, simulatedCrash } from './api-error.ts';
import type { RequestContext } from './context.ts';
import type { ReferenceControl } from './control.ts';
import { limiterHeaders } from './rate-limiter.ts';
import { errorReply, type Reply, writeReply } from './reply.ts';
import { ClientGone } from './request-body.ts';
import { type Route, Router } from './router.ts';
import { controlRoutes } from './routes/control.ts';
import { createToken, currentUser, featureFlags, listCustomers, listReports } from './routes/main-service.ts';
import { createPet, listPets, showPet } from './routes/pets.ts';
import type { ServerState } from './state.ts';

export const TOKEN_ROUTE = '/api/v1/auth/token';

const SERVICE_ROUTES: readonly Route[] = [
  { method: 'POST', template: TOKEN_ROUTE, handler: createToken },
  { method: 'GET', template: '/api/v1/customers', handler: listCustomers },
  { method: 'GET', template: '/api/v1/user/me', handler: currentUser },
  { method: 'GET', template: '/api/v1/feature-flags', handler: featureFlags },
  { method: 'GET', template: '/api/v1/reports', handler: listReports },
  { method: 'GET', template: '/petstore/v1/pets', handler: listPets },
  { method: 'POST', template: '/petstore/v1/pets', handler: createPet },
  { method: 'GET', template: '/petstore/v1/pets/{petId}', handler: showPet },
];

// Slow or stalled clients are dropped: headers within 10 s, the whole request within 30 s.
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
// Idle keep-alive connections live longer than clients keep them (undici: 4 s), so the client
// closes first: a server closing one just as a starved client reuses it resets that request.
const KEEP_ALIVE_TIMEOUT_MS = 30_000;

function callerAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const q = target.indexOf('?');
  let path = q === -1 ? target : target.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
  if (!path.startsWith('/')) {
    // An absolute-form target (http://host/path) or garbage: only a path is routed.
    try {
      path = new URL(path).pathname;
    } catch {
      path = `/${path}`;
    }
  }
  return { path, query };
}

function clientErrorOf(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError(431, 'HEADERS_TOO_LARGE', 'the request headers are too large');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError(408, 'REQUEST_TIMEOUT', 'the request was not received in time');
  }
  return new ApiError(400, 'BAD_REQUEST', 'the request could not be parsed as HTTP/1.1');
}

const isControlPath = (path: string) => path === '/__control' || path.startsWith('/__control/');

export function createReferenceHttpServer(state: ServerState, control: ReferenceControl): Server {
  const service = new Router(SERVICE_ROUTES);
  const controller = new Router(controlRoutes(control));

  // `matched` learns the route ('GET /api/v1/customers') before the handler runs, so an error
  // reply can be reshaped by the route's faults too.
  async function route(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    matched: { route?: string },
  ): Promise<Reply> {
    const method = req.method ?? 'GET';
    const isControl = isControlPath(path);
    // Fault trailing-slash-skips-auth: a trailing slash routes as the bare path (and skips the guard).
    const routed =
      state.faults.has('trailing-slash-skips-auth') && path.length > 1 && path.endsWith('/')
        ? path.slice(0, -1)
        : path;
    const match =
      isControl && state.options.control ? controller.match(method, path) : service.match(method, routed);
    if (!isControl) {
      const counted = match.kind === 'none' ? undefined : `${method} ${match.template}`;
      state.counts.count(counted, match.kind !== 'none' && match.template === TOKEN_ROUTE);
    }
    if (match.kind === 'found') matched.route = `${method} ${match.template}`;
    // Fault query-percent-500: the query decoded twice, so a decoded % (or U+FFFD for a byte that is
    // no UTF-8) meets a decoder that throws.
    if (
      state.faults.has('query-percent-500') &&
      match.kind === 'found' &&
      [...query.values()].some((v) => v.includes('%') || v.includes('\uFFFD'))
    ) {
      throw simulatedCrash();
    }
    if (match.kind === 'none') {
      if (state.faults.has('unknown-route-500')) throw simulatedCrash();
      throw new ApiError(404, 'NOT_FOUND', `no route ${method} ${path}`);
    }
    if (match.kind === 'wrong-method') {
      if (state.faults.has('unshown-method-500')) throw simulatedCrash();
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${match.template}`, {
        headers: { allow: match.allow.join(', ') },
      });
    }
    const ctx: RequestContext = {
      req,
      method,
      path,
      query,
      params: match.params,
      address: callerAddress(req),
      state,
    };
    return match.handler(ctx);
  }

  // Set only by the faults that stand for a crash or a hang on input (never on a correct server):
  // a crashed server drops every connection from then on, a hung one answers nothing more.
  let down: 'crashed' | 'hung' | undefined;
  const crash = () => {
    down = 'crashed';
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (down === 'crashed') {
      res.destroy();
      return;
    }
    if (down === 'hung') return;
    const requestId = randomUUID();
    const { path, query } = splitTarget(req.url ?? '/');
    if (state.faults.has('pets-next-page-hang') && query.has('after') && path.endsWith('/pets')) {
      down = 'hung';
      return;
    }
    const matched: { route?: string } = {};
    let reply: Reply;
    try {
      reply = await route(req, path, query, matched);
    } catch (error) {
      if (error instanceof ClientGone) return;
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 'INTERNAL_ERROR', `an internal error occurred (request ${requestId})`, {
              handled: false,
            });
      if (!(error instanceof ApiError)) {
        // A bug of the server, never the client's doing: say so where the operator sees it.
        process.stderr.write(`reference server: internal error on ${req.method} ${path}: ${String(error)}\n`);
      }
      reply = errorReply(apiError, {
        requestId,
        path,
        now: state.now(),
        errorsField: state.options.choices['errors-field'],
      });
    }
    // The faults that are data reshape the correct answer here, once (src/reference/reshape.ts).
    reply = state.faults.reshape(reply, matched.route);
    // Date from the server's own (virtual) clock, the clock its error timestamps are read from, at
    // the moment the answer is made: the latency below is the network's, during which a check may
    // move the virtual clock 61 s (the Date then disagreed with the body's timestamp by a minute).
    const date = new Date(state.now()).toUTCString();
    // Latency stands for the network between a suite and a remote API; the control API is the
    // tests' side channel, which a remote target does not have, so it answers at once.
    if (state.options.latencyMs > 0 && !isControlPath(path)) await delay(state.options.latencyMs);
    writeReply(res, reply, { date, 'x-request-id': requestId, ...limiterHeaders.get(req) });
  }

  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // A request without Host still gets our error body, not Node's bare 400.
      requireHostHeader: false,
    },
    (req, res) => {
      // A client that resets mid-answer must not surface as an unhandled error.
      req.on('error', () => undefined);
      res.on('error', () => undefined);
      handle(req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) res.destroy();
      });
    },
  );

  // Unparseable requests (bad request line, oversized headers, timeouts): the error body if the
  // socket can still take it, then close.
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    const overflow = error.code === 'HPE_HEADER_OVERFLOW';
    if (
      (overflow && state.faults.has('header-overflow-crash')) ||
      (!overflow && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && state.faults.has('garbled-request-crash'))
    ) {
      crash();
      socket.destroy();
      return;
    }
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const apiError = clientErrorOf(error.code);
    const reply = state.faults.reshape(
      errorReply(apiError, { requestId: randomUUID(), path: '/', now: state.now() }),
      undefined,
    );
    const body = reply.text?.body ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    const type = reply.text?.contentType ?? reply.contentType ?? 'application/json; charset=utf-8';
    socket.end(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? ''}\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  // A crashed server takes no connection at all (as a dead process's port refuses it).
  server.on('connection', (socket: Socket) => {
    if (down === 'crashed') socket.destroy();
  });

  return server;
}
