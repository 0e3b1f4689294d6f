// Every exchange is recorded with every secret redacted, in every field: credential headers,
// token and secret fields, and known secret values wherever a target echoes them.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createApiClient,
  createRecorder,
  createSecretFilter,
  MAX_RECORDED_BODY,
  REDACTED,
  type RecordedExchange,
} from '../../src/client/index.ts';
import { json, SECRETS, startServer, type TestServer, testConfig } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ISSUED = 'issued-token-5e6f7a8b';

describe('exchange records', () => {
  it('record method, URL, headers, bodies, status and timing of each exchange', async () => {
    server = await startServer((_req, res) => json(res, 201, { id: 3 }, { 'x-request-id': 'r-1' }));
    const client = createApiClient(testConfig(server.origin));
    await client.request({
      service: 'petstore',
      method: 'POST',
      path: 'pets',
      auth: 'none',
      body: { id: 3, name: 'Kit' },
    });
    const [e] = client.recorder.exchanges();
    expect(e).toMatchObject({
      method: 'POST',
      url: `${server.origin}/petstore/v1/pets`,
      requestBody: '{"id":3,"name":"Kit"}',
      status: 201,
      responseBody: '{"id":3}',
    });
    expect(e?.requestHeaders['content-type']).toBe('application/json');
    expect(e?.responseHeaders?.['x-request-id']).toBe('r-1');
    expect(Number.isNaN(Date.parse(e?.startedAt ?? ''))).toBe(false);
    expect(e?.durationMs).toBeGreaterThanOrEqual(0);
    client.recorder.clear();
    expect(client.recorder.exchanges()).toEqual([]);
  });

  it('no secret survives anywhere, even when the target echoes them', async () => {
    const leak = Object.values(SECRETS).join(' ');
    server = await startServer((req, res) => {
      if (req.path === '/api/v1/auth/token') {
        return json(
          res,
          200,
          { access_token: ISSUED, token_type: 'bearer' },
          { 'set-cookie': `sid=${ISSUED}` },
        );
      }
      // A careless target: echoes what it got, the secrets, and a token field of another name.
      return json(
        res,
        200,
        { echoed: req.headers, body: req.body, leak, nested: { access_token: 'some-other-token' } },
        { 'x-echo': `${SECRETS.apiKeySecret} ${ISSUED}`, 'www-authenticate': `Bearer ${ISSUED}` },
      );
    });
    const client = createApiClient(testConfig(server.origin));
    await client.request({ service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' });
    await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' });
    await client.request({
      service: 'main',
      method: 'POST',
      path: 'v1/anything',
      auth: { headers: { authorization: 'Bearer hand-made-token', 'x-api-key-secret': 'wrong-secret' } },
      query: { access_token: 'query-token', note: SECRETS.pinnedSecret },
      rawBody: `client_secret=form-secret&access_token=form-token&x=${encodeURIComponent(SECRETS.clientSecret)}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    client.tokens.useToken(SECRETS.expiredToken);
    await client.request({
      service: 'main',
      method: 'GET',
      path: `v1/echo/${SECRETS.expiredToken}`,
      auth: 'bearer',
    });

    const records = client.recorder.exchanges();
    expect(records).toHaveLength(5);
    const everything = JSON.stringify(records);
    for (const secret of [
      ...Object.values(SECRETS),
      ISSUED,
      'some-other-token',
      'hand-made-token',
      'wrong-secret',
      'query-token',
      'form-secret',
      'form-token',
      encodeURIComponent(SECRETS.clientSecret),
    ]) {
      expect(everything, `leaked ${secret}`).not.toContain(secret);
    }

    const [token, me, key, custom, echo] = records as RecordedExchange[];
    expect(JSON.parse(token?.requestBody ?? '{}')).toEqual({
      client_id: 'test-client',
      client_secret: REDACTED,
    });
    expect(JSON.parse(token?.responseBody ?? '{}')).toEqual({ access_token: REDACTED, token_type: 'bearer' });
    expect(token?.responseHeaders?.['set-cookie']).toBe(REDACTED);
    expect(me?.requestHeaders.authorization).toBe(REDACTED);
    expect(me?.responseHeaders?.['www-authenticate']).toBe(REDACTED);
    expect(key?.requestHeaders['x-api-key-id']).toBe('test-key');
    expect(key?.requestHeaders['x-api-key-secret']).toBe(REDACTED);
    expect(key?.responseHeaders?.['x-echo']).toBe(`${REDACTED} ${REDACTED}`);
    expect(custom?.url).toBe(`${server.origin}/api/v1/anything?access_token=${REDACTED}&note=${REDACTED}`);
    expect(custom?.requestBody).toBe(`client_secret=${REDACTED}&access_token=${REDACTED}&x=${REDACTED}`);
    expect(echo?.url).toBe(`${server.origin}/api/v1/echo/${REDACTED}`);
    // Non-secret values stay readable.
    expect(everything).toContain('test-client');
    expect(everything).toContain('bearer');
  });

  it('redacts secrets in the error of a failed exchange', async () => {
    const client = createApiClient(testConfig('http://secret-host.invalid'));
    await client
      .request({
        service: 'main',
        method: 'GET',
        path: 'v1/customers',
        auth: 'apiKey',
        query: { k: SECRETS.apiKeySecret },
      })
      .catch(() => undefined);
    const [e] = client.recorder.exchanges();
    expect(e?.error).toBe('cannot resolve host secret-host.invalid (DNS failure)');
    expect(e?.url).toBe(`http://secret-host.invalid/api/v1/customers?k=${REDACTED}`);
    expect(e?.status).toBeUndefined();
    expect(JSON.stringify(e)).not.toContain(SECRETS.apiKeySecret);
  });

  it('cuts recorded bodies to 64 KiB after redacting, so a secret at the cut does not leak in part', async () => {
    const filler = 'a'.repeat(MAX_RECORDED_BODY - 5);
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${filler}${SECRETS.apiKeySecret}${'b'.repeat(10_000)}`);
    });
    const client = createApiClient(testConfig(server.origin));
    const res = await client.request({ service: 'main', method: 'GET', path: 'v1/big', auth: 'none' });
    expect(res.text.length).toBe(filler.length + SECRETS.apiKeySecret.length + 10_000);
    const body = client.recorder.exchanges()[0]?.responseBody ?? '';
    expect(body.startsWith(filler)).toBe(true);
    expect(body).toContain('[truncated,');
    expect(body.length).toBeLessThan(MAX_RECORDED_BODY + 100);
    expect(body).not.toContain(SECRETS.apiKeySecret.slice(0, 5));
  });

  it('a recorder given from outside redacts with its own secrets too', () => {
    const recorder = createRecorder(['outside-secret']);
    recorder.record({
      method: 'GET',
      url: 'http://h/api/v1/x?s=outside-secret',
      requestHeaders: { Authorization: 'Bearer abc', 'X-Other': 'outside-secret' },
      responseBody: '{"access_token":"abc","ok":"outside-secret"}',
      startedAt: new Date(0).toISOString(),
      durationMs: 1,
    });
    const [e] = recorder.exchanges();
    expect(e?.url).toBe(`http://h/api/v1/x?s=${REDACTED}`);
    expect(e?.requestHeaders).toEqual({ Authorization: REDACTED, 'X-Other': REDACTED });
    expect(e?.responseBody).toBe(`{"access_token":"${REDACTED}","ok":"${REDACTED}"}`);
  });

  it("one pass per exchange: the client hands the recorder what it sent and got, and the recorder's filter learns the tokens", async () => {
    server = await startServer((req, res) => {
      if (req.path === '/api/v1/auth/token') return json(res, 200, { access_token: ISSUED });
      return json(res, 200, { echo: `${ISSUED} ${SECRETS.apiKeySecret}` });
    });
    const recorder = createRecorder([SECRETS.apiKeySecret]);
    const given: RecordedExchange[] = [];
    const record = recorder.record;
    // What reaches record(): a client that filtered first (a second pass) would hand over [REDACTED].
    recorder.record = (e) => {
      given.push(e);
      record(e);
    };
    const client = createApiClient(testConfig(server.origin), { recorder });
    await client.request({ service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' });
    expect(given.at(-1)?.responseBody).toBe(JSON.stringify({ echo: `${ISSUED} ${SECRETS.apiKeySecret}` }));
    expect(given.at(-1)?.requestHeaders.authorization).toBe(`Bearer ${ISSUED}`);
    // The recorder learned the token the client obtained: one filter, and it knows everything.
    expect(recorder.exchanges().at(-1)?.responseBody).toBe(
      JSON.stringify({ echo: `${REDACTED} ${REDACTED}` }),
    );
    expect(JSON.stringify(recorder.exchanges())).not.toContain(ISSUED);
  });
});

describe('the secret filter, as the recorder uses it', () => {
  it('redacts a secret as is, URL-encoded and JSON-escaped, longest first', () => {
    const r = createSecretFilter(['a b"c', 'short', 'short-and-longer']);
    expect(r.text('x a b"c y')).toBe(`x ${REDACTED} y`);
    expect(r.text('x=a%20b%22c')).toBe(`x=${REDACTED}`);
    expect(r.text('{"v":"a b\\"c"}')).toBe(`{"v":"${REDACTED}"}`);
    expect(r.text('short-and-longer')).toBe(REDACTED);
  });

  it('redacts token fields whatever their value, with spaces and escapes in the JSON', () => {
    const r = createSecretFilter([]);
    expect(r.text('{ "access_token" : "a\\"b", "refresh_token":"c", "client_secret": "d" }')).toBe(
      `{ "access_token" : "${REDACTED}", "refresh_token":"${REDACTED}", "client_secret": "${REDACTED}" }`,
    );
  });

  it('learns secrets later', () => {
    const r = createSecretFilter([]);
    expect(r.text('late-token')).toBe('late-token');
    r.add('late-token');
    expect(r.text('late-token')).toBe(REDACTED);
  });
});
