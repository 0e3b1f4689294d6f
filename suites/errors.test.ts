// The error body, checked field by field on every kind of error the suite provokes, across routes.

import {
  about,
  type ErrorBodyLike,
  ensure,
  expectRefusal,
  expectStatus,
  expectValid,
  isJsonContentType,
  notServerError,
} from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { expect } from '../src/checks/expect.ts';
import { errorsListProblem, namesRoute } from '../src/checks/invariants.ts';
import { shared } from '../src/checks/shared.ts';
import { type ApiClient, type ApiRequest, type ApiResponse, TransportError } from '../src/client/index.ts';
import { type PagedEnvelope, validateErrorBody } from '../src/contract/index.ts';

interface ProvokedError {
  what: string;
  /** The route as the spec names it, e.g. /v1/customers. */
  route: string;
  res: ApiResponse;
}

const WRONG_BEARER = { headers: { authorization: 'Bearer not-a-token-issued-by-the-service' } };

async function provoke(client: ApiClient): Promise<ProvokedError[]> {
  const cases: { what: string; route: string; req: ApiRequest }[] = [
    {
      what: 'GET /v1/customers without credentials',
      route: '/v1/customers',
      req: { service: 'main', method: 'GET', path: 'v1/customers', auth: 'none' },
    },
    {
      what: 'GET /v1/customers?page=abc',
      route: '/v1/customers',
      req: { service: 'main', method: 'GET', path: 'v1/customers', query: { page: 'abc' }, auth: 'apiKey' },
    },
    {
      what: 'GET /v1/user/me with an API key',
      route: '/v1/user/me',
      req: { service: 'main', method: 'GET', path: 'v1/user/me', auth: 'apiKey' },
    },
    {
      what: 'GET /v1/feature-flags with a token the service never issued',
      route: '/v1/feature-flags',
      req: {
        service: 'main',
        method: 'GET',
        path: 'v1/feature-flags',
        auth: WRONG_BEARER,
        renew: false,
        madeUp: true,
      },
    },
    {
      what: 'POST /v1/auth/token with a wrong client secret',
      route: '/v1/auth/token',
      req: {
        service: 'main',
        method: 'POST',
        path: 'v1/auth/token',
        auth: 'none',
        body: { client_id: 'conformance-unknown-client', client_secret: 'wrong-secret' },
        madeUp: true,
      },
    },
  ];
  const provoked = await Promise.all(
    cases.map(async ({ what, route, req }) => ({ what, route, res: await client.request(req) })),
  );
  // The 422 of a page beyond the end needs total_pages first.
  const first = await client.request({
    service: 'main',
    method: 'GET',
    path: 'v1/customers',
    auth: 'apiKey',
  });
  const totalPages = (first.body as Partial<PagedEnvelope> | undefined)?.pagination?.total_pages;
  if (typeof totalPages === 'number') {
    const page = totalPages + 1;
    provoked.push({
      what: `GET /v1/customers?page=${page}`,
      route: '/v1/customers',
      res: await client.request({
        service: 'main',
        method: 'GET',
        path: 'v1/customers',
        query: { page },
        auth: 'apiKey',
      }),
    });
  }
  for (const p of provoked) {
    ensure(p.res.status >= 400, `${p.what} should be an error, got ${p.res.status}`);
  }
  return provoked;
}

const errors = shared(provoke);

function bodyOf(p: ProvokedError): ErrorBodyLike {
  const body = p.res.body;
  ensure(typeof body === 'object' && body !== null, `${p.what}: no JSON error body`);
  return body as ErrorBodyLike;
}

// ISO 8601 date-time: a date, T, a time; seconds, fractions and the zone may vary.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

const TOKEN_ROUTE = { service: 'main', method: 'POST', path: 'v1/auth/token', auth: 'none' } as const;

// Bodies that are not the JSON object the token route takes: none names a client, so each is
// refused; which 4xx is not shown. The last sends neither a body nor a Content-Type.
const NOT_AN_OBJECT: { what: string; rawBody?: string; contentType?: string }[] = [
  ...['null', '"conformance"', '42', 'true'].map((text) => ({
    what: `the JSON body ${text}`,
    rawBody: text,
    contentType: 'application/json',
  })),
  { what: 'an empty JSON body', rawBody: '', contentType: 'application/json' },
  { what: 'no body and no Content-Type' },
];

// Requests off the operations the spec shows, each with a safe method (RFC 9110: GET and OPTIONS
// change nothing, so production may get them too): what answers them is the target's choice (a 404,
// a 405, a 204 with Allow), a 5xx is a server failure (GNR-01). Errors among them are judged by the
// error-body invariants like any other answer of the main service.
const UNKNOWN_ROUTE = 'v1/conformance-unknown-route';
const MAIN_ROUTES = ['v1/auth/token', 'v1/customers', 'v1/user/me', 'v1/feature-flags'];

// Past any size a token request needs (the reference server takes 1 MiB); the spec gives no limit,
// so the server may read it all (then the credentials are wrong) or refuse its size: a 4xx either way.
const OVERSIZED_BYTES = 2 * 1024 * 1024;

area('errors', () => {
  check(
    { id: 'ERR-MESSAGE', title: 'every error carries the error body with its message', rules: ['ERR-01'] },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          expect(typeof bodyOf(p).message, `${p.what}: message`).toBe('string');
        });
      }
    },
  );

  check(
    {
      id: 'ERR-FIELDS',
      title: 'every error body has the fields of the spec with their types',
      rules: ['ERR-02'],
    },
    async (t) => {
      for (const p of await errors(t))
        await about(p.res, () => expectValid(validateErrorBody(bodyOf(p)), `${p.what}: the error body`));
    },
  );

  check(
    { id: 'ERR-STATUS-CODE', title: 'status_code equals the HTTP status', rules: ['ERR-03'] },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          expect(bodyOf(p).status_code, `${p.what}: status_code vs HTTP ${p.res.status}`).toBe(p.res.status);
        });
      }
    },
  );

  check(
    { id: 'ERR-TIMESTAMP', title: 'timestamp is an ISO 8601 date-time', rules: ['ERR-04'] },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          const timestamp = bodyOf(p).timestamp;
          const valid =
            typeof timestamp === 'string' &&
            ISO_DATE_TIME.test(timestamp) &&
            !Number.isNaN(Date.parse(timestamp));
          ensure(valid, `${p.what}: timestamp ${JSON.stringify(timestamp)} is not ISO 8601`);
        });
      }
    },
  );

  check(
    { id: 'ERR-PATH', title: 'path names the route that caused the error', rules: ['ERR-05'] },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          const path = bodyOf(p).path;
          ensure(
            typeof path === 'string' && namesRoute(path, p.route),
            `${p.what}: path ${JSON.stringify(path)} does not name ${p.route}`,
          );
        });
      }
    },
  );

  check(
    {
      id: 'ERR-ERRORS-ARRAY',
      title: 'errors, where an error body carries it, is an array of strings',
      rules: ['ERR-06'],
    },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          const { errors: list } = bodyOf(p);
          // "filled when the error has several messages": absent with one message is the spec's.
          ensure(
            list === undefined || (Array.isArray(list) && list.every((m) => typeof m === 'string')),
            `${p.what}: errors is ${JSON.stringify(list)}, not an array of strings`,
          );
        });
      }
    },
  );

  check(
    {
      id: 'ERR-ERRORS-SEVERAL',
      title:
        'errors, when filled, holds several messages (an error of one message: empty, absent or the message)',
      rules: ['ERR-08'],
    },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          const { errors: list, message } = bodyOf(p);
          const problem = errorsListProblem(list, message);
          ensure(problem === '', `${p.what}: ${problem}`);
        });
      }
    },
  );

  check(
    { id: 'ERR-JSON', title: 'error responses are JSON with a JSON content type', rules: ['ERR-07'] },
    async (t) => {
      for (const p of await errors(t)) {
        await about(p.res, () => {
          expect(isJsonContentType(p.res), `${p.what}: content type ${p.res.headers['content-type']}`).toBe(
            true,
          );
          ensure(p.res.isJson, `${p.what}: body is not JSON`);
        });
      }
    },
  );

  check(
    {
      id: 'ERR-BODY-NOT-OBJECT',
      title:
        'a token request whose body is JSON null, a string, a number, true, empty or absent (no Content-Type) is refused with a 4xx and the error body',
      rules: ['GNR-01', 'GNR-03'],
    },
    async (t) => {
      const answers = await Promise.all(
        NOT_AN_OBJECT.map(async ({ what, ...body }) => ({
          what,
          res: await t.client.request({ ...TOKEN_ROUTE, ...body }),
        })),
      );
      for (const { what, res } of answers) expectRefusal(res, `POST /v1/auth/token with ${what}`);
    },
  );

  check(
    {
      id: 'ERR-BODY-OVERSIZED',
      title:
        'a 2 MiB token request (wrong credentials, padded) is refused with a 4xx and the error body, never a 5xx',
      rules: ['GNR-01', 'TOK-03'],
    },
    async (t) => {
      const body = {
        client_id: 'conformance-unknown-client',
        client_secret: 'conformance-unknown-secret',
        padding: 'x'.repeat(OVERSIZED_BYTES),
      };
      let res: ApiResponse;
      try {
        // On a connection of its own: a server that answers before reading the whole body may reset
        // the connection, which must not fall on another check's request reusing it.
        res = await t.client.request({ ...TOKEN_ROUTE, body, headers: { connection: 'close' } });
      } catch (error) {
        // Closing the connection on a body too large is a refusal without an answer: nothing to judge.
        if (error instanceof TransportError && error.kind === 'reset') {
          t.skip(
            `the target closed the connection on a 2 MiB request body without answering (${error.message})`,
          );
        }
        throw error;
      }
      expectRefusal(res, 'POST /v1/auth/token with a 2 MiB body');
    },
  );

  check(
    {
      id: 'GNR-OFF-ROUTE',
      title:
        'GET on a path no operation of the spec has, and OPTIONS on every route of the main service, are answered, never with a 5xx',
      rules: ['GNR-01'],
    },
    async (t) => {
      const asks: { what: string; req: ApiRequest }[] = [
        {
          what: `GET /${UNKNOWN_ROUTE}`,
          req: { service: 'main', method: 'GET', path: UNKNOWN_ROUTE, auth: 'apiKey' },
        },
        ...MAIN_ROUTES.map((path) => ({
          what: `OPTIONS /${path}`,
          req: { service: 'main' as const, method: 'OPTIONS' as const, path, auth: 'apiKey' as const },
        })),
      ];
      const answers = await Promise.all(
        asks.map(async ({ what, req }) => ({ what, res: await t.client.request(req) })),
      );
      for (const { what, res } of answers) expectStatus(res, notServerError, what);
    },
  );

  check(
    {
      id: 'ERR-PAGE-REPEATED',
      title:
        'GET /v1/customers?page=1&page=2 answers page 1 or 2, or is refused with a 4xx and an error body whose message explains it',
      rules: ['ERR-01', 'GNR-01'],
    },
    async (t) => {
      // A repeated parameter travels in the path: the client's query holds one value a name.
      const what = 'GET /v1/customers?page=1&page=2';
      const res = await t.client.request({
        service: 'main',
        method: 'GET',
        path: 'v1/customers?page=1&page=2',
        auth: 'apiKey',
      });
      if (res.status >= 200 && res.status < 300) {
        // Which value is read is not shown; either page is an envelope the INV-PAGE-* invariants judge.
        const current = (res.body as Partial<PagedEnvelope> | undefined)?.pagination?.current_page;
        ensure(
          current === 1 || current === 2,
          `${what} answered ${res.status} with current_page ${current}`,
          res,
        );
        return;
      }
      const { message } = expectRefusal(res, what);
      ensure(
        typeof message === 'string' && message.trim() !== '',
        `${what} was refused with ${res.status} and the message ${JSON.stringify(message)}, which explains nothing`,
        res,
      );
    },
  );
});
