// The one curl renderer: a recorded exchange's request as a command that sends the same request
// again, byte for byte, once the variables it names are exported; no secret in the command itself,
// and no URL, header or body can break out of its shell word.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { printableCommand } from '../../common/safe-text.ts';
import { variablesOf } from '../../src/client/curl.ts';
import {
  type ApiRequest,
  createApiClient,
  curlOf,
  curlVariables,
  type RecordedExchange,
} from '../../src/client/index.ts';
import { apiKeyExchange } from '../support/exchange.ts';
import { json, type Received, SECRETS, startServer, type TestServer, testConfig } from './helpers.ts';

const run = promisify(execFile);
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'issued-token-5e6f7a8b';
/** What a person exports before pasting a command: the table's secret rows and the run's token. */
const EXPORTED = {
  CLIENT_SECRET: SECRETS.clientSecret,
  API_KEY_SECRET: SECRETS.apiKeySecret,
  PINNED_API_KEY_SECRET: SECRETS.pinnedSecret,
  EXPIRED_ACCESS_TOKEN: SECRETS.expiredToken,
  ACCESS_TOKEN: TOKEN,
};

/** Runs a command in a POSIX shell with the variables exported. */
async function sh(command: string, env: Record<string, string> = EXPORTED): Promise<string> {
  const { stdout } = await run('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '', ...env } });
  return stdout;
}

/** A request as a server sees it, without what only the sending program decides. */
function seen(r: Received) {
  const { host: _h, connection: _c, ...headers } = r.headers;
  return { method: r.method, path: r.path, headers, body: r.body };
}

const CASES: [string, ApiRequest][] = [
  [
    'API key, query',
    { service: 'main', method: 'GET', path: 'v1/customers', query: { page: "2' $(id)" }, auth: 'apiKey' },
  ],
  ['bearer token', { service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' }],
  [
    'the client secret inside a JSON body',
    {
      service: 'main',
      method: 'POST',
      path: 'v1/auth/token',
      auth: 'none',
      body: { client_id: ["it's", 'me'], client_secret: SECRETS.clientSecret, note: '`id` "$HOME"' },
    },
  ],
  [
    'raw body without a content type, extra headers, PUT',
    {
      service: 'petstore',
      method: 'PUT',
      path: 'pets/7',
      auth: 'none',
      rawBody: '{"name":"O\'Neil"\n',
      headers: { 'x-trace': 'a; b', 'x-empty': '' },
    },
  ],
  [
    'hand-made credentials holding the pinned secret, a URL with brackets',
    {
      service: 'main',
      method: 'DELETE',
      path: 'v1/reports',
      query: { 'filter[a]': '{x}' },
      auth: { headers: { 'x-api-key-id': 'pinned', 'x-api-key-secret': SECRETS.pinnedSecret } },
    },
  ],
  [
    'a body with line breaks, a tab, NUL, a bidi override, % and backslashes, and a secret',
    {
      service: 'main',
      method: 'POST',
      path: 'v1/raw',
      auth: 'none',
      rawBody: `a\nb\tc\u0000d\u202e%s \\n ${SECRETS.clientSecret} é\r\n`,
      contentType: 'text/plain',
    },
  ],
  [
    'an empty body with a content type',
    {
      service: 'petstore',
      method: 'POST',
      path: 'pets',
      auth: 'none',
      rawBody: '',
      contentType: 'text/plain',
    },
  ],
];

describe('curlOf: the recorded request, sent again', () => {
  it.each(CASES)('%s: the server receives the same request from the command', async (_name, req) => {
    server = await startServer((r, res) =>
      r.path === '/api/v1/auth/token' && r.body.includes(SECRETS.clientSecret) && !r.body.includes('note')
        ? json(res, 200, { access_token: TOKEN })
        : json(res, 200, {}),
    );
    const client = createApiClient(testConfig(server.origin));
    await client.request(req);
    const exchange = client.recorder.exchanges().at(-1) as RecordedExchange;
    const sent = seen(server.received.at(-1) as Received);
    const command = curlOf(exchange);
    for (const secret of [...Object.values(SECRETS), TOKEN]) expect(command).not.toContain(secret);
    // One printable line, whatever the body holds.
    expect(printableCommand(command)).toBe(command);
    await sh(`${command} -s -o /dev/null`);
    expect(seen(server.received.at(-1) as Received)).toEqual(sent);
    expect(curlVariables(exchange)).toEqual(variablesOf(command));
  });

  it('names each secret by its row of the table of variables ($ACCESS_TOKEN for a token the run got)', async () => {
    server = await startServer((r, res) =>
      r.path === '/api/v1/auth/token' ? json(res, 200, { access_token: TOKEN }) : json(res, 200, {}),
    );
    const client = createApiClient(testConfig(server.origin));
    await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' });
    await client.request({ service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' });
    const [key, token, me] = client.recorder.exchanges().map(curlOf);
    expect(key).toBe(
      `curl -i '${server.origin}/api/v1/customers' -H 'accept: application/json' -H 'x-api-key-id: test-key' -H 'x-api-key-secret: '"$API_KEY_SECRET" -H 'user-agent:'`,
    );
    expect(token).toBe(
      `curl -i '${server.origin}/api/v1/auth/token' -H 'accept: application/json' -H 'content-type: application/json' -H 'user-agent:' --data-raw '{"client_id":"test-client","client_secret":"'"$CLIENT_SECRET"'"}'`,
    );
    expect(me).toContain(`-H 'authorization: Bearer '"$ACCESS_TOKEN"`);
  });

  it('a value the filter hides that no variable holds (a made-up credential) is a HIDDEN_ variable, never written', async () => {
    server = await startServer((_r, res) => json(res, 401, {}));
    const client = createApiClient(testConfig(server.origin));
    await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/user/me',
      auth: { headers: { authorization: 'Bearer made-up-token-1234' } },
    });
    const command = curlOf(client.recorder.exchanges()[0] as RecordedExchange);
    expect(command).not.toContain('made-up-token-1234');
    expect(variablesOf(command)).toEqual(['HIDDEN_AUTHORIZATION']);
  });

  it('an exchange recorded without its request (older results) is rendered as it reads', () => {
    expect(curlOf(apiKeyExchange)).toBe(
      `curl -i 'http://127.0.0.1:4010/api/v1/customers?page=2' -H 'x-api-key-id: local-api-key' -H 'x-api-key-secret: [REDACTED]' -H 'accept: application/json' -H 'user-agent:'`,
    );
  });

  it('a hostile URL stays one word: no command substitution', async () => {
    const command = curlOf({ ...apiKeyExchange, url: "http://x/$(touch /tmp/pwned)'`id`" });
    const words = await sh(`set -- ${command.replace(/^curl /, '')}; printf '%s\\n' "$@"`);
    expect(words.split('\n')).toContain("http://x/$(touch /tmp/pwned)'`id`");
  });
});

describe('curlOf: secrets as variables next to secret field names', () => {
  it('a configured secret after client_secret= or access_token= is its variable, with nothing added', async () => {
    server = await startServer((_r, res) => json(res, 200, {}));
    const client = createApiClient(testConfig(server.origin));
    await client.request({
      service: 'main',
      method: 'POST',
      path: 'v1/form',
      query: { access_token: SECRETS.expiredToken },
      auth: 'none',
      rawBody: `client_secret=${SECRETS.clientSecret}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    const exchange = client.recorder.exchanges()[0] as RecordedExchange;
    expect(curlVariables(exchange)).toEqual(['EXPIRED_ACCESS_TOKEN', 'CLIENT_SECRET']);
    const sent = seen(server.received[0] as Received);
    await sh(`${curlOf(exchange)} -s -o /dev/null`);
    expect(seen(server.received[1] as Received)).toEqual(sent);
  });
});

describe('curlOf: a generated request keeps the values it made up', () => {
  const body = { client_id: 'drawn-id', client_secret: 'drawn-secret-Xy7' };
  it('a client_secret the generator drew is sent back as it was; a hand-made one is hidden', async () => {
    server = await startServer((_r, res) => json(res, 401, {}));
    const client = createApiClient(testConfig(server.origin));
    const req: ApiRequest = { service: 'main', method: 'POST', path: 'v1/auth/token', auth: 'none', body };
    await client.request({ ...req, generated: true });
    await client.request(req);
    const [generated, handMade] = client.recorder.exchanges() as RecordedExchange[];
    // The report's text hides it either way (its field's name); only the replay keeps it.
    expect(generated?.requestBody).not.toContain('drawn-secret-Xy7');
    const sent = seen(server.received[0] as Received);
    await sh(`${curlOf(generated as RecordedExchange)} -s -o /dev/null`);
    expect(seen(server.received.at(-1) as Received)).toEqual(sent);
    expect(curlOf(handMade as RecordedExchange)).not.toContain('drawn-secret-Xy7');
    expect(curlVariables(handMade as RecordedExchange)).toEqual(['HIDDEN_CLIENT_SECRET']);
  });

  it('a configured secret in a generated request is still its variable', async () => {
    server = await startServer((_r, res) => json(res, 200, {}));
    const client = createApiClient(testConfig(server.origin));
    await client.request({
      service: 'main',
      method: 'POST',
      path: 'v1/auth/token',
      auth: 'none',
      body: { client_id: 'test-client', client_secret: SECRETS.clientSecret },
      generated: true,
    });
    const command = curlOf(client.recorder.exchanges()[0] as RecordedExchange);
    expect(command).not.toContain(SECRETS.clientSecret);
    expect(variablesOf(command)).toEqual(['CLIENT_SECRET']);
  });
});

describe('curlOf: a large body', () => {
  it('a 4 MiB body with a secret field and a configured secret is recorded, cut, and its command says so', async () => {
    server = await startServer((_r, res) => json(res, 413, {}));
    const client = createApiClient(testConfig(server.origin));
    const name = 'n'.repeat(4 * 1024 * 1024);
    await client.request({
      service: 'petstore',
      method: 'POST',
      path: 'pets',
      auth: 'none',
      body: { name, client_secret: 'made-up', note: SECRETS.clientSecret },
    });
    const exchange = client.recorder.exchanges()[0] as RecordedExchange;
    expect(exchange.replay?.bodyCut).toBe(
      JSON.stringify({ name, client_secret: 'made-up', note: SECRETS.clientSecret }).length,
    );
    const command = curlOf(exchange);
    expect(command).not.toContain(SECRETS.clientSecret);
    expect(command).toMatch(/ # the body is cut to its first characters; the request sent \d+$/);
    expect(command.length).toBeLessThan(70 * 1024);
  });
});

describe('commands that run as printed: only the variables of .env (issue 33)', () => {
  it("a request the check made up (madeUp) sends its wrong credentials as they were, its secrets' near misses stay hidden", async () => {
    server = await startServer((_r, res) => json(res, 401, {}));
    const client = createApiClient(testConfig(server.origin));
    const wrong = { 'x-api-key-id': 'test-key', 'x-api-key-secret': 'wrong-secret-for-conformance' };
    await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/customers',
      auth: { headers: wrong },
      madeUp: true,
    });
    // A near miss of the configured secret is derived from it: never made up, never written.
    const near = { 'x-api-key-id': 'test-key', 'x-api-key-secret': `${SECRETS.apiKeySecret.slice(0, -1)}#` };
    await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: { headers: near } });
    // A wrong client_secret the check wrote, in a token request's body.
    const body = { client_id: 'conformance-unknown-client', client_secret: 'wrong-secret' };
    await client.request({
      service: 'main',
      method: 'POST',
      path: 'v1/auth/token',
      auth: 'none',
      body,
      madeUp: true,
    });
    const [made, derived, token] = client.recorder.exchanges() as RecordedExchange[];
    expect(curlOf(made as RecordedExchange)).toContain(`-H 'x-api-key-secret: wrong-secret-for-conformance'`);
    expect(curlVariables(made as RecordedExchange)).toEqual([]);
    expect(curlVariables(derived as RecordedExchange)).toEqual(['HIDDEN_X_API_KEY_SECRET']);
    expect(curlOf(derived as RecordedExchange)).not.toContain(SECRETS.apiKeySecret.slice(0, -1));
    expect(curlOf(token as RecordedExchange)).toContain('"client_secret":"wrong-secret"');
    const sent = seen(server.received[0] as Received);
    await sh(`${curlOf(made as RecordedExchange)} -s -o /dev/null`, {});
    expect(seen(server.received.at(-1) as Received)).toEqual(sent);
  });

  it('a made-up credential around a token the run learned keeps the token its variable', async () => {
    server = await startServer((r, res) =>
      r.path === '/api/v1/auth/token' ? json(res, 200, { access_token: TOKEN }) : json(res, 401, {}),
    );
    const client = createApiClient(testConfig(server.origin));
    const token = await client.tokens.getToken();
    await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/user/me',
      auth: { headers: { authorization: `Token ${token}` } },
      madeUp: true,
    });
    const command = curlOf(client.recorder.exchanges().at(-1) as RecordedExchange);
    expect(command).toContain(`-H 'authorization: Token '"$ACCESS_TOKEN"`);
    expect(command).not.toContain(TOKEN);
  });

  it('a token a check asked for itself is $ACCESS_TOKEN in the commands that send it, not a hidden value', async () => {
    server = await startServer((r, res) =>
      r.path === '/api/v1/auth/token' ? json(res, 200, { access_token: TOKEN }) : json(res, 200, {}),
    );
    const client = createApiClient(testConfig(server.origin));
    const issued = await client.request({
      service: 'main',
      method: 'POST',
      path: 'v1/auth/token',
      auth: 'none',
      body: { client_id: 'test-client', client_secret: SECRETS.clientSecret },
    });
    const raw = (issued.body as { access_token: string }).access_token;
    await client.request({
      service: 'main',
      method: 'GET',
      path: 'v1/user/me',
      auth: { headers: { authorization: `Bearer ${raw}` } },
    });
    expect(curlVariables(client.recorder.exchanges().at(-1) as RecordedExchange)).toEqual(['ACCESS_TOKEN']);
  });
});
