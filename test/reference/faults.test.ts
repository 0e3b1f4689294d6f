// Every named fault is real: a small probe of the rule it breaks holds on the clean server and
// fails once that fault (and only it) is switched on. A fault without a probe fails the test.
import { connect } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/index.ts';
import { type Answer, type Envelope, errorBodyProblems, type TestServer, withServer } from './helpers.ts';

/** Bytes sent as they are on a connection of their own; whatever comes back, or nothing, is read. */
function rawExchange(s: TestServer, bytes: string): Promise<void> {
  const { hostname, port } = new URL(s.origin);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(bytes));
    socket.on('data', () => undefined);
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
    socket.setTimeout(5000, () => socket.destroy());
  });
}

/** The body's bytes as they came (undici's text() drops a byte order mark). */
async function bytesOf(s: TestServer, path: string): Promise<Buffer> {
  const res = await request(`${s.origin}${path}`);
  return Buffer.from(await res.body.arrayBuffer());
}

/** The answer, or undefined when none came within `ms` (a hang). */
async function within<T>(pending: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([pending.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

const stillAnswers = async (s: TestServer) => (await within(s.call('/api/v1/customers'), 5000)) !== undefined;

/** true when the rule holds. */
type Probe = (s: TestServer) => Promise<boolean>;

const CUSTOMERS = '/api/v1/customers';
const ME = '/api/v1/user/me';
const FLAGS = '/api/v1/feature-flags';
const REPORTS = '/api/v1/reports';
const PETS = '/petstore/v1/pets';

const isJson = (a: Answer) => /^application\/json/.test(a.headers['content-type'] ?? '');
const page = async (s: TestServer, n: number) => (await s.withKey(`${CUSTOMERS}?page=${n}`)).json as Envelope;
const beyond = async (s: TestServer) =>
  (await s.withKey(`${CUSTOMERS}?page=4`)).json as Record<string, unknown>;
const notFound = (s: TestServer) => s.call('/api/v1/nothing-here');
const errorField =
  (field: string, ok: (v: unknown) => boolean): Probe =>
  async (s) =>
    ok(((await notFound(s)).json as Record<string, unknown>)[field]);
const flagOf = (a: Answer, name: string) =>
  (a.json as { data: { name: string; enabled: boolean }[] }).data.find((f) => f.name === name)?.enabled;
const pets = async (s: TestServer, query = '') => (await s.call(`${PETS}${query}`)).json as unknown;

const expiredTokenProbe: Probe = async (s) => {
  const headers = await s.bearerHeaders();
  s.control.advanceClock(3601);
  const answer = await s.call(ME, { headers });
  return answer.status === 401 && (answer.json as { code?: string }).code === 'SESSION_EXPIRED';
};

const disabledReports = async (s: TestServer) => {
  s.control.setFeature('reports', false);
  return s.withKey(REPORTS);
};

const pageBeyondIs422: Probe = async (s) => (await s.withKey(`${CUSTOMERS}?page=4`)).status === 422;

/** Two requests with a key limited to one per minute: the second one's answer. */
async function overLimit(s: TestServer): Promise<Answer> {
  const key = s.control.createApiKey({ rateLimit: { limit: 1, windowSeconds: 60 } });
  const headers = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
  await s.call(CUSTOMERS, { headers });
  const second = await s.call(CUSTOMERS, { headers });
  // Waiting what Retry-After says must be enough.
  s.control.advanceClock(Number(second.headers['retry-after'] ?? 60));
  const third = await s.call(CUSTOMERS, { headers });
  return { ...second, headers: { ...second.headers, 'x-third-status': String(third.status) } };
}

const PROBES: Record<string, Probe> = {
  'token-missing-access-token': async (s) =>
    typeof ((await s.requestToken()).json as Record<string, unknown>).access_token === 'string',
  'token-not-accepted': async (s) => (await s.withBearer(ME)).status === 200,
  'token-wrong-secret-accepted': async (s) => (await s.requestToken('wrong')).status === 401,
  'token-client-secret-prefix-compared': async (s) =>
    (await s.requestToken(`${s.running.credentials.clientSecret.slice(0, -1)}X`)).status === 401,
  'token-answer-echoes-client-secret': async (s) =>
    !(await s.requestToken()).text.includes(s.running.credentials.clientSecret),
  'token-unknown-client-accepted': async (s) =>
    (
      await s.call('/api/v1/auth/token', {
        method: 'POST',
        body: { client_id: 'nobody', client_secret: 'x' },
      })
    ).status === 401,
  'token-empty-body-accepted': async (s) =>
    (await s.call('/api/v1/auth/token', { method: 'POST', body: {} })).status === 401,
  'api-key-refused-on-customers': async (s) => (await s.withKey(CUSTOMERS)).status === 200,
  'customers-refuses-both-schemes': async (s) =>
    (await s.withKey(CUSTOMERS)).status === 200 && (await s.withBearer(CUSTOMERS)).status === 200,
  'api-key-wrong-secret-accepted': async (s) =>
    (await s.call(CUSTOMERS, { headers: { ...s.keyHeaders(), 'x-api-key-secret': 'wrong' } })).status === 401,
  'api-key-unknown-id-accepted': async (s) =>
    (await s.call(CUSTOMERS, { headers: { 'x-api-key-id': 'nobody', 'x-api-key-secret': 'x' } })).status ===
    401,
  'api-key-id-alone-accepted': async (s) =>
    (await s.call(CUSTOMERS, { headers: { 'x-api-key-id': s.running.credentials.apiKeyId } })).status === 401,
  'api-key-secret-prefix-compared': async (s) => {
    const nearMiss = `${s.running.credentials.apiKeySecret.slice(0, -1)}X`;
    return (
      (await s.call(CUSTOMERS, { headers: { ...s.keyHeaders(), 'x-api-key-secret': nearMiss } })).status ===
      401
    );
  },
  'pinned-key-accepted-anywhere': async (s) =>
    (await s.call(CUSTOMERS, { headers: s.pinnedKeyHeaders() })).status === 403,
  'pinned-key-refused-from-its-address': async (s) => {
    // The probe's requests come from the loopback address.
    const key = s.control.createApiKey({ pinnedAddress: '127.0.0.1' });
    const headers = { 'x-api-key-id': key.id, 'x-api-key-secret': key.secret };
    return (await s.call(CUSTOMERS, { headers })).status === 200;
  },
  'pinned-key-trusts-forwarded-for': async (s) =>
    (
      await s.call(CUSTOMERS, {
        headers: { ...s.pinnedKeyHeaders(), 'x-forwarded-for': '203.0.113.10' },
      })
    ).status === 403,
  'bearer-lowercase-scheme-only': async (s) =>
    (await s.call(ME, { headers: { authorization: `Bearer ${await s.token()}` } })).status === 200,
  'bearer-scheme-not-checked': async (s) =>
    (await s.call(ME, { headers: { authorization: `Basic ${await s.token()}` } })).status === 401,
  'no-credentials-accepted': async (s) => (await s.call(CUSTOMERS)).status === 401,
  'user-me-accepts-api-key': async (s) => (await s.withKey(ME)).status === 403,
  'flags-accept-api-key': async (s) => (await s.withKey(FLAGS)).status === 403,
  'invalid-bearer-accepted': async (s) =>
    (await s.call(ME, { headers: { authorization: 'Bearer forged' } })).status === 401,
  'envelope-missing-extra': async (s) => typeof (await page(s, 1)).extra === 'object',
  'pagination-numbers-as-strings': async (s) =>
    Object.values((await page(s, 2)).pagination).every(Number.isInteger),
  'showing-items-off-by-one': async (s) => {
    const p = await page(s, 3);
    return p.pagination.showing_items === p.data.length;
  },
  'total-items-off-by-one': async (s) => (await page(s, 1)).pagination.total_items === 137,
  'total-items-left-after-page': async (s) => (await page(s, 3)).pagination.total_items === 137,
  'pages-overlap': async (s) => {
    const ids = [1, 2, 3].map(async (n) => (await page(s, n)).data.map((c) => c.id));
    return new Set((await Promise.all(ids)).flat()).size === 137;
  },
  'total-pages-off-by-one': async (s) => (await page(s, 1)).pagination.total_pages === 3,
  'current-page-zero-based': async (s) => (await page(s, 2)).pagination.current_page === 2,
  'previous-page-zero-on-first': async (s) => (await page(s, 1)).pagination.previous_page === 1,
  'next-page-beyond-last': async (s) => (await page(s, 3)).pagination.next_page === 3,
  'page-beyond-last-200': pageBeyondIs422,
  'page-beyond-last-400': pageBeyondIs422,
  'page-wraps-32-bit': async (s) => (await s.withKey(`${CUSTOMERS}?page=${2 ** 32 + 1}`)).status === 422,
  'page-beyond-message-without-max': async (s) => /\b3\b/.test(String((await beyond(s)).message)),
  'page-beyond-message-page-before': async (s) =>
    /maximum page 3$/.test(
      String(((await s.withKey(`${CUSTOMERS}?page=9`)).json as { message?: unknown }).message),
    ),
  'page-beyond-errors-filled': async (s) => JSON.stringify((await beyond(s)).errors) === '[]',
  'page-beyond-unhandled': async (s) => (await beyond(s)).handled === true,
  'page-size-20': async (s) => (await page(s, 1)).data.length === 50,
  'page-zero-500': async (s) => (await s.withKey(`${CUSTOMERS}?page=0`)).status === 400,
  'customers-bearer-refused-404': async (s) => (await s.withBearer(CUSTOMERS)).status === 200,
  'error-missing-message': errorField('message', (v) => typeof v === 'string'),
  'error-missing-handled': errorField('handled', (v) => typeof v === 'boolean'),
  'status-code-mismatch': errorField('status_code', (v) => v === 404),
  'session-expired-status-code-mismatch': async (s) => {
    const headers = await s.bearerHeaders();
    s.control.advanceClock(3601);
    const answer = await s.call(ME, { headers });
    return (answer.json as { status_code?: unknown }).status_code === answer.status;
  },
  'timestamp-not-iso': errorField('timestamp', (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)),
  'error-path-wrong': errorField('path', (v) => v === '/api/v1/nothing-here'),
  'errors-field-not-strings': errorField(
    'errors',
    (v) => Array.isArray(v) && v.every((m) => typeof m === 'string'),
  ),
  // A list of one is not "several messages": on an error of one message, at most that message.
  'errors-filled-one-message': async (s) => {
    const { errors, message } = (await notFound(s)).json as Record<string, unknown>;
    return !(Array.isArray(errors) && errors.length === 1 && errors[0] !== message);
  },
  'error-text-plain': async (s) => isJson(await notFound(s)),
  'user-me-array': async (s) => {
    const body = (await s.withBearer(ME)).json;
    return typeof body === 'object' && body !== null && !Array.isArray(body);
  },
  'flags-html': async (s) => isJson(await s.withBearer(FLAGS)),
  'flags-not-cached': async (s) => {
    const headers = await s.bearerHeaders();
    await s.call(FLAGS, { headers });
    s.control.setFeature('beta-exports', false);
    return flagOf(await s.call(FLAGS, { headers }), 'beta-exports') === true;
  },
  'flags-never-renewed': async (s) => {
    const headers = await s.bearerHeaders();
    await s.call(FLAGS, { headers });
    s.control.setFeature('beta-exports', false);
    s.control.advanceClock(61);
    return flagOf(await s.call(FLAGS, { headers }), 'beta-exports') === false;
  },
  'feature-disabled-403': async (s) => (await disabledReports(s)).status === 503,
  'feature-disabled-ignored': async (s) => (await disabledReports(s)).status === 503,
  'feature-disabled-wrong-code': async (s) =>
    ((await disabledReports(s)).json as { code?: string }).code === 'FEATURE_FLAG_DISABLED',
  'feature-disabled-generic-message': async (s) =>
    String(((await disabledReports(s)).json as { message?: string }).message).includes('reports'),
  'expired-token-accepted': expiredTokenProbe,
  'session-expired-other-code': expiredTokenProbe,
  'flags-expired-token-accepted': async (s) => {
    const headers = await s.bearerHeaders();
    s.control.advanceClock(3601);
    return (await s.call(FLAGS, { headers })).status === 401;
  },
  'renewal-returns-stale-token': async (s) => {
    const stale = await s.token();
    s.control.expireSessions(stale);
    await s.call(ME, { headers: { authorization: `Bearer ${stale}` } });
    const fresh = await s.token();
    return (
      fresh !== stale && (await s.call(ME, { headers: { authorization: `Bearer ${fresh}` } })).status === 200
    );
  },
  'token-single-use': async (s) => {
    const headers = await s.bearerHeaders();
    return (await s.call(ME, { headers })).status === 200 && (await s.call(ME, { headers })).status === 200;
  },
  'rate-limit-503': async (s) => (await overLimit(s)).status === 429,
  'rate-limit-500': async (s) => (await overLimit(s)).status === 429,
  'rate-limit-missing': async (s) => (await overLimit(s)).status === 429,
  'rate-limit-no-body': async (s) => errorBodyProblems(await overLimit(s)).length === 0,
  'rate-limit-no-retry-after': async (s) => (await overLimit(s)).headers['retry-after'] !== undefined,
  'retry-after-too-short': async (s) => (await overLimit(s)).headers['x-third-status'] === '200',
  'retry-after-capped-at-one-second': async (s) => (await overLimit(s)).headers['x-third-status'] === '200',
  'pets-wrapped-in-object': async (s) => Array.isArray(await pets(s)),
  'pet-id-as-string': async (s) =>
    ((await pets(s, '?limit=10')) as { id: unknown }[]).every((p) => Number.isInteger(p.id)),
  'pet-status-outside-enum': async (s) =>
    ((await pets(s)) as { status?: string }[]).every(
      (p) => p.status === undefined || ['available', 'pending', 'sold'].includes(p.status),
    ),
  'pets-limit-ignored': async (s) => ((await pets(s, '?limit=5')) as unknown[]).length === 5,
  'pets-list-empty': async (s) => ((await pets(s, '?limit=1')) as unknown[]).length === 1,
  'pets-limit-over-100': async (s) => (await s.call(`${PETS}?limit=101`)).status === 400,
  'pets-default-limit-10': async (s) => ((await pets(s)) as unknown[]).length === 100,
  'pets-limit-100-lists-none': async (s) =>
    ((await s.call(`${PETS}?limit=100`)).json as unknown[]).length === 100,
  'create-pet-200': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5001, name: 'A' } })).status === 201,
  'pet-status-required': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5008, name: 'no status' } })).status === 201,
  'created-pet-lost': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5002, name: 'B' } });
    return (await s.call(`${PETS}/5002`)).status === 200;
  },
  'duplicate-pet-kept': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5009, name: 'first' } });
    const again = await s.call(PETS, { method: 'POST', body: { id: 5009, name: 'second' } });
    const read = await s.call(`${PETS}/5009`);
    return again.status >= 400 || (read.json as { name?: string }).name === 'second';
  },
  'refused-taken-id-replaces-pet': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5017, name: 'first' } });
    const again = await s.call(PETS, { method: 'POST', body: { id: 5017, name: 'second' } });
    const read = await s.call(`${PETS}/5017`);
    return again.status === 409 && (read.json as { name?: string }).name === 'first';
  },
  'refused-pet-id-reserved': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5018, name: 12345 } });
    return (await s.call(PETS, { method: 'POST', body: { id: 5018, name: 'after' } })).status === 201;
  },
  // The server still answers a plain request after an odd one (a crash or hang is a fault).
  'garbled-request-crash': async (s) => {
    await rawExchange(s, 'GARBLED \x01 NOT HTTP\r\n\r\n');
    return stillAnswers(s);
  },
  'header-overflow-crash': async (s) => {
    await rawExchange(s, `GET /api/v1/customers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    return stillAnswers(s);
  },
  'pets-next-page-hang': async (s) => (await within(s.call(`${PETS}?limit=3&after=3`), 5000)) !== undefined,
  'created-pet-body-not-json': async (s) => {
    const res = await s.call(PETS, { method: 'POST', body: { id: 5016, name: 'G' } });
    return res.text === '' || res.json !== undefined;
  },
  'negative-pet-id-500': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: -5017, name: 'negative' } })).status < 500,
  'taken-pet-id-500': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5018, name: 'first' } });
    return (await s.call(PETS, { method: 'POST', body: { id: 5018, name: 'again' } })).status < 500;
  },
  'pet-null-body-500': async (s) =>
    (await s.call(PETS, { method: 'POST', body: 'null', headers: { 'content-type': 'application/json' } }))
      .status === 400,
  'negative-pet-id-unreadable': async (s) => {
    const created = await s.call(PETS, { method: 'POST', body: { id: -5010, name: 'negative' } });
    return created.status >= 400 || (await s.call(`${PETS}/-5010`)).status === 200;
  },
  'deprecation-header-empty': async (s) => Boolean((await s.call(`${PETS}/1`)).headers.deprecation),
  'pet-without-name-accepted': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5003 } })).status === 400,
  'pet-without-id-accepted': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { name: 'no id' } })).status === 400,
  'no-deprecation-header': async (s) => (await s.call(`${PETS}/1`)).headers.deprecation !== undefined,
  'unknown-pet-400': async (s) => (await s.call(`${PETS}/424242`)).status === 404,
  'customers-text-content-type': async (s) => isJson(await s.withKey(CUSTOMERS)),
  // Generated requests (suites/generated.test.ts)
  'page-zero-first-page': async (s) => (await s.withKey(`${CUSTOMERS}?page=0`)).status === 400,
  'page-invalid-first-page': async (s) =>
    (await Promise.all(['-1', 'abc', '1.5'].map((p) => s.withKey(`${CUSTOMERS}?page=${p}`)))).every(
      (a) => a.status === 400,
    ),
  'pet-id-not-integer-500': async (s) => (await s.call(`${PETS}/abc`)).status === 400,
  'page-not-integer-500': async (s) => (await s.withKey(`${CUSTOMERS}?page=abc`)).status === 400,
  'malformed-json-500': async (s) =>
    (
      await s.call(PETS, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id": 5010, "name": "C"',
      })
    ).status === 400,
  'pet-unknown-field-500': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5020, name: 'G', colour: 'brown' } })).status < 500,
  'pet-id-unsafe-integer-500': async (s) =>
    (
      await s.call(PETS, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id": 9007199254740993, "name": "H"}',
      })
    ).status < 500,
  'limit-unsafe-integer-500': async (s) => (await s.call(`${PETS}?limit=9007199254740993`)).status < 500,
  'limit-number-notation-500': async (s) => (await s.call(`${PETS}?limit=1e2`)).status < 500,
  'pet-long-text-500': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5021, name: 'I'.repeat(2000) } })).status < 500,
  'pet-non-ascii-500': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5022, name: 'Zoë' } })).status < 500,
  'token-empty-string-500': async (s) => {
    const body = { client_id: '', client_secret: '' };
    return (await s.call('/api/v1/auth/token', { method: 'POST', body })).status < 500;
  },
  'token-null-body-500': async (s) =>
    (
      await s.call('/api/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'null',
      })
    ).status === 400,
  'token-no-content-type-500': async (s) =>
    (await s.call('/api/v1/auth/token', { method: 'POST' })).status === 415,
  'oversized-body-500': async (s) => {
    const body = { client_id: 'x', client_secret: 'y', padding: 'x'.repeat(2 * 1024 * 1024) };
    return (await s.call('/api/v1/auth/token', { method: 'POST', body })).status === 413;
  },
  'unknown-route-500': async (s) => (await s.call('/api/v1/conformance-unknown-route')).status === 404,
  'unshown-method-500': async (s) => (await s.call(CUSTOMERS, { method: 'OPTIONS' })).status === 405,
  'repeated-query-message-empty': async (s) => {
    const res = await s.withKey(`${CUSTOMERS}?page=1&page=2`);
    return res.status === 400 && (res.json as { message?: string }).message !== '';
  },
  'repeated-query-500': async (s) => (await s.call(`${PETS}?limit=1&limit=2`)).status < 500,
  'pet-tag-refused': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5011, name: 'D', tag: 'cat' } })).status === 201,
  'token-wrong-type-accepted': async (s) => {
    const { clientId, clientSecret } = s.running.credentials;
    const body = { client_id: [clientId], client_secret: clientSecret };
    const { status } = await s.call('/api/v1/auth/token', { method: 'POST', body });
    return status >= 400 && status < 500;
  },
  'pets-limit-not-a-number-accepted': async (s) => (await s.call(`${PETS}?limit=abc`)).status === 400,
  'pets-limit-leading-digits-read': async (s) => (await s.call(`${PETS}?limit=1x`)).status === 400,
  'nameless-pet-stored': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5012 } })).status === 400,
  'pet-status-outside-enum-stored': async (s) =>
    (await s.call(PETS, { method: 'POST', body: { id: 5013, name: 'E', status: 'adopted' } })).status === 400,
  'pet-non-ascii-mangled': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5015, name: 'Zoë 🐾' } });
    return ((await s.call(`${PETS}/5015`)).json as { name?: string }).name === 'Zoë 🐾';
  },
  'pet-tag-dropped': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5014, name: 'F', tag: 'cat' } });
    return ((await s.call(`${PETS}/5014`)).json as { tag?: string }).tag === 'cat';
  },
  'bearer-page-size-20': async (s) =>
    ((await s.withBearer(CUSTOMERS)).json as Envelope).data.length === (await page(s, 1)).data.length,
  'bearer-page-zero-first-page': async (s) => (await s.withBearer(`${CUSTOMERS}?page=0`)).status >= 400,
  'pets-next-link-repeats-page': async (s) => {
    const first = await s.call(`${PETS}?limit=2`);
    const link = new URL(String(first.headers['x-next']));
    const next = await s.call(`${link.pathname}${link.search}`);
    return JSON.stringify(next.json) !== JSON.stringify(first.json);
  },
  'unknown-param-reverses-order': async (s) =>
    JSON.stringify(((await s.withKey(`${CUSTOMERS}?x=1`)).json as Envelope).data) ===
    JSON.stringify((await page(s, 1)).data),
  'trailing-slash-skips-auth': async (s) => (await s.call(`${CUSTOMERS}/`)).status >= 400,
  'refused-pet-stored': async (s) => {
    await s.call(PETS, { method: 'POST', body: { id: 5016, name: 123 } });
    return (await s.call(`${PETS}/5016`)).status === 404;
  },
  'error-timestamp-hour-ahead': async (s) => {
    const answer = await notFound(s);
    const stamp = Date.parse(String((answer.json as Record<string, unknown>).timestamp));
    return Math.abs(stamp - Date.parse(answer.headers.date ?? '')) < 30_000;
  },
  'query-percent-500': async (s) =>
    (await s.withKey(`${CUSTOMERS}?page=%25`)).status < 500 &&
    (await s.call(`${PETS}?limit=%FF`)).status < 500,
  'path-not-utf8-500': async (s) => (await s.call(`${PETS}/%C3%28`)).status === 400,
  'lone-surrogate-500': async (s) =>
    (
      await s.call(PETS, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id": 5031, "name": "Rex \\ud800"}',
      })
    ).status < 500,
  'body-not-utf8-500': async (s) =>
    (
      await s.call(PETS, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat([
          Buffer.from('{"id": 5032, "name": "Rex '),
          Buffer.of(0xff, 0xc3, 0x28),
          Buffer.from('"}'),
        ]),
      })
    ).status < 500,
  // The text as undici decodes it: a byte order mark stays U+FEFF, a byte that is no UTF-8 is U+FFFD.
  'pet-error-bom': async (s) => (await bytesOf(s, `${PETS}/abc`))[0] === 0x7b,
  'error-latin1': async (s) => {
    const answer = await s.call(`${PETS}/Zo%C3%AB`);
    return answer.status === 400 && answer.text.includes('Zoë') && !answer.text.includes('\uFFFD');
  },
  'error-duplicate-status-code': async (s) =>
    ((await s.call(CUSTOMERS)).text.match(/"status_code"/g) ?? []).length === 1,
  'bearer-pages-repeat-first': async (s) => {
    const headers = await s.bearerHeaders();
    const first = (await s.call(CUSTOMERS, { headers })).json as Envelope;
    const next = (await s.call(`${CUSTOMERS}?page=${first.pagination.next_page}`, { headers }))
      .json as Envelope;
    return JSON.stringify(next.data) !== JSON.stringify(first.data);
  },
  'refused-scheme-revokes-token': async (s) => {
    const headers = await s.bearerHeaders();
    const token = String(headers.authorization).replace(/^Bearer /, '');
    await s.call(ME, { headers: { authorization: `Basic ${token}` } });
    return (await s.call(ME, { headers })).status === 200;
  },
  'near-miss-locks-api-key': async (s) => {
    const wrong = { 'x-api-key-secret': 'not-the-secret' };
    for (let i = 0; i < 5; i++) await s.withKey(CUSTOMERS, { headers: wrong });
    return (await s.withKey(CUSTOMERS)).status === 200;
  },
};

describe('named faults', () => {
  it('there are 30 or more, each named once and tied to a rule', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const f of FAULTS) {
      expect(f.rule).toMatch(/^[A-Z]+-\d{2}$/);
      expect(f.description.length).toBeGreaterThan(10);
    }
  });

  it('every fault has a probe, and every probe a fault', () => {
    expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });

  it.each(FAULTS.map((f) => [f.name, f.rule] as const))(
    '%s breaks %s: its probe holds clean, fails with the fault',
    async (name) => {
      const probe = PROBES[name];
      expect(probe, `no probe for fault ${name}`).toBeDefined();
      if (!probe) return;
      await withServer({}, async (s) => {
        expect(await probe(s), 'the rule holds on the clean server').toBe(true);
        s.control.reset();
        s.control.setFaults([name]);
        expect(await probe(s), `the rule is broken with ${name}`).toBe(false);
      });
    },
  );

  it('a fault given at start is active, and reset() keeps the start faults', async () => {
    await withServer({ faults: ['page-size-20'] }, async (s) => {
      expect((await page(s, 1)).data).toHaveLength(20);
      s.control.setFaults([]);
      expect((await page(s, 1)).data).toHaveLength(50);
      s.control.reset();
      expect(s.control.faults()).toEqual(['page-size-20']);
    });
  });
});
