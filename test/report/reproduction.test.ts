// "reproduce with", as every sink prints it: a command that runs as printed with the variables of
// .env exported (a token fetched first with CLIENT_ID and CLIENT_SECRET), or a note saying why there
// is none: never a $HIDDEN_ variable that nothing sets (INV-ERROR-PATH's, issue 33).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { variablesOf } from '../../src/client/curl.ts';
import { createApiClient, type RecordedExchange } from '../../src/client/index.ts';
import { NO_COMMAND_HIDDEN, reproductionOf } from '../../src/report/reproduce.ts';
import { json, type Received, SECRETS, startServer, type TestServer, testConfig } from '../client/helpers.ts';

const run = promisify(execFile);
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'fresh-token-9a8b7c6d';

describe('reproductionOf', () => {
  it('a bearer request: the command gets a fresh token first and runs as printed with .env exported', async () => {
    server = await startServer((r, res) =>
      r.path === '/api/v1/auth/token'
        ? json(
            res,
            200,
            JSON.parse(r.body).client_secret === SECRETS.clientSecret ? { access_token: TOKEN } : {},
          )
        : json(res, 200, { seen: r.headers.authorization }),
    );
    const config = testConfig(server.origin);
    const client = createApiClient(config);
    await client.request({ service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' });
    const r = reproductionOf(client.recorder.exchanges().at(-1) as RecordedExchange, config.apiBaseUrl);
    if (!('command' in r)) throw new Error(r.note);
    expect(variablesOf(r.command).sort()).toEqual(['ACCESS_TOKEN', 'CLIENT_ID', 'CLIENT_SECRET']);
    expect(r.command).not.toContain(SECRETS.clientSecret);
    // The variables as .env names them, nothing else.
    const env = {
      PATH: process.env.PATH ?? '',
      CLIENT_ID: 'test-client',
      CLIENT_SECRET: SECRETS.clientSecret,
    };
    await run('sh', ['-c', `${r.command} -s -o /dev/null`], { env });
    const last = server.received.at(-1) as Received;
    expect(last.path).toBe('/api/v1/user/me');
    expect(last.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('a request with a value no variable of .env holds has no command, and says why', async () => {
    server = await startServer((_r, res) => json(res, 401, {}));
    const config = testConfig(server.origin);
    const client = createApiClient(config);
    await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/customers',
      auth: { headers: { 'x-api-key-id': 'k', 'x-api-key-secret': `${SECRETS.apiKeySecret}x` } },
    });
    await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/customers',
      auth: { headers: { 'x-api-key-id': 'k', 'x-api-key-secret': `x${SECRETS.apiKeySecret.slice(1)}` } },
    });
    const [around, near] = client.recorder.exchanges() as RecordedExchange[];
    // Around the secret: the secret is its variable and the rest was the check's own, but a
    // request not marked made up keeps the rest hidden.
    expect(reproductionOf(around as RecordedExchange, config.apiBaseUrl)).toEqual({
      note: NO_COMMAND_HIDDEN,
    });
    expect(reproductionOf(near as RecordedExchange, config.apiBaseUrl)).toEqual({ note: NO_COMMAND_HIDDEN });
  });
});
