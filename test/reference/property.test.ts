// Property: whatever a client sends (random method, route, path parameter, query string, headers
// and body), the clean server never answers 5xx, and every 4xx carries the spec's error body.
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { type Answer, errorBodyProblems } from './helpers.ts';

// Each route with its own method: random requests mostly use it, so they get past the router.
const ROUTES: [string, string][] = [
  ['POST', '/api/v1/auth/token'],
  ['GET', '/api/v1/customers'],
  ['GET', '/api/v1/user/me'],
  ['GET', '/api/v1/feature-flags'],
  ['GET', '/api/v1/reports'],
  ['GET', '/petstore/v1/pets'],
  ['POST', '/petstore/v1/pets'],
  ['GET', '/petstore/v1/pets/{petId}'],
  ['GET', '/__control/'],
  ['POST', '/__control/clock/advance'],
  ['PUT', '/__control/features/{name}'],
  ['POST', '/__control/sessions/expire'],
  ['PUT', '/__control/token-ttl'],
  ['PUT', '/__control/rate-limit'],
  ['POST', '/__control/api-keys'],
  ['PUT', '/__control/faults'],
  ['GET', '/__control/requests'],
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;

// Characters a request target may carry as they are, including '%' for broken escapes.
const targetChar = fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?%[]".split(''));
const targetText = fc.string({ unit: targetChar, maxLength: 30 });
const anyText = fc.string({ maxLength: 30 });
const headerValue = fc.string({
  unit: fc.constantFrom(...' abcABC019-_.,;=/:+"\'\t'.split('')),
  maxLength: 40,
});

const segment = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000 }).map(String),
  anyText.map(encodeURIComponent),
  targetText.map((t) => t.replace(/[/?]/g, '')),
  fc.constantFrom('reports', 'customers', '1e3', '0x10', '9007199254740993'),
);

const queryValue = fc.oneof(
  { arbitrary: fc.constantFrom('0', '00', '-1', '1', '3', '4', '100', '101', '1.5', '', ' 1'), weight: 3 },
  { arbitrary: anyText, weight: 1 },
  { arbitrary: fc.integer().map(String), weight: 1 },
);

const query = fc.oneof(
  fc.constant(''),
  targetText.map((t) => `?${t}`),
  fc
    .array(fc.tuple(fc.constantFrom('page', 'page', 'limit', 'limit', 'after', 'x', ''), queryValue), {
      minLength: 1,
      maxLength: 3,
    })
    .map(
      (pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
    ),
);

const headers = fc.record(
  {
    authorization: fc.oneof(
      headerValue,
      headerValue.map((v) => `Bearer ${v}`),
    ),
    'x-api-key-id': fc.oneof(headerValue, fc.constant('local-api-key')),
    'x-api-key-secret': headerValue,
    'content-type': fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 4 },
      fc.constantFrom(
        'application/json',
        'application/merge-patch+json',
        'text/plain',
        'application/json; charset=latin1',
      ),
      headerValue,
    ),
    accept: headerValue,
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  fc.constant(undefined),
  anyText,
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        id: fc.oneof(fc.integer(), anyText, fc.double()),
        name: fc.oneof(anyText, fc.integer()),
        status: fc.oneof(fc.constantFrom('available', 'sold'), anyText),
        client_id: anyText,
        client_secret: anyText,
        seconds: fc.oneof(fc.integer(), fc.double(), anyText),
        enabled: fc.oneof(fc.boolean(), anyText),
        limit: fc.oneof(fc.integer(), fc.constant(null)),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);

const exchange = fc.record({
  // The spec's routes weigh more than the control routes.
  route: fc.oneof(
    { arbitrary: fc.constantFrom(...ROUTES.filter(([, t]) => !t.startsWith('/__control'))), weight: 3 },
    { arbitrary: fc.constantFrom(...ROUTES), weight: 1 },
  ),
  otherMethod: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
  ),
  param: segment,
  query,
  headers,
  // Valid credentials often enough that the rules behind authentication are reached too.
  auth: fc.constantFrom('key', 'bearer', 'as generated'),
  body,
});

type Exchange = typeof exchange extends fc.Arbitrary<infer T> ? T : never;

let server: RunningReferenceServer;
let origin: string;

beforeAll(async () => {
  // Control on, so its routes are fuzzed too; the limiter off, so every route's own rules are reached.
  server = await startReferenceServer({ control: true, rateLimit: null });
  origin = new URL(server.apiBaseUrl).origin;
});
afterAll(() => server.close());

async function token(): Promise<string> {
  const c = server.credentials;
  const res = await request(`${origin}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: c.clientId, client_secret: c.clientSecret }),
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

async function send(e: Exchange): Promise<Answer & { method: string }> {
  const [ownMethod, template] = e.route;
  const method = e.otherMethod ?? ownMethod;
  const path = template.replace(/\{[^}]+\}/, e.param);
  const withBody = e.body !== undefined && method !== 'GET' && method !== 'HEAD';
  const auth =
    e.auth === 'key'
      ? { 'x-api-key-id': server.credentials.apiKeyId, 'x-api-key-secret': server.credentials.apiKeySecret }
      : e.auth === 'bearer'
        ? { authorization: `Bearer ${await token()}` }
        : {};
  const headers: Record<string, string> = { ...e.headers, ...auth };
  if (e.auth === 'bearer') {
    // A key sent alongside would be used first where the route accepts keys.
    delete headers['x-api-key-id'];
    delete headers['x-api-key-secret'];
  }
  const res = await request(`${origin}${path}${e.query}`, {
    method,
    headers,
    // A request the server never answers fails with its counterexample, not as a test timeout.
    headersTimeout: 5_000,
    bodyTimeout: 5_000,
    ...(withBody ? { body: e.body } : {}),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const answerHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') answerHeaders[k] = v;
  return { status: res.statusCode, headers: answerHeaders, text, json, method };
}

describe('random requests', () => {
  it('never get a 5xx, and every 4xx has the error body with status_code equal to the status', async () => {
    await fc.assert(
      fc.asyncProperty(exchange, async (e) => {
        server.control.reset();
        const answer = await send(e);
        expect(answer.status, answer.text).toBeLessThan(500);
        if (answer.status >= 400 && answer.method !== 'HEAD') {
          expect(errorBodyProblems(answer), answer.text).toEqual([]);
        }
        expect(server.control.faults()).toEqual([]);
      }),
      { numRuns: 400 },
    );
    // 400 exchanges take about 2 s alone; the whole self project runs files in parallel.
  }, 60_000);
});
