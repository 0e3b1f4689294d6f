// The setup diagnosis against reference servers: right setup says nothing; each setup mistake
// (wrong client secret, API key refused, wrong base path, dead pet base) gives its one line; a
// broken service (5xx on the token route) is not called a setup mistake.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/client/index.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { diagnoseSetup } from '../../src/runner/setup-diagnosis.ts';
import { stagingConfigOf } from '../support/target-config.ts';

let server: RunningReferenceServer;
let failing: Server;
let failingBase: string;
let dead: Server;
let deadBase: string;
let asking: Server;
let askingBase: string;

beforeAll(async () => {
  server = await startReferenceServer();
  // A service whose token route is broken (500) while the rest answers.
  failing = createServer((req, res) => {
    const broken = req.url?.endsWith('/auth/token');
    res.writeHead(broken ? 500 : 200, { 'content-type': 'application/json' });
    res.end(broken ? '{"code":"INTERNAL_ERROR","message":"boom"}' : '[]');
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingBase = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  // A pet interface that asks for credentials (its authentication is "not shown" in the spec).
  asking = createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"error":"an API key is required"}');
  });
  await new Promise<void>((resolve) => asking.listen(0, '127.0.0.1', resolve));
  askingBase = `http://127.0.0.1:${(asking.address() as AddressInfo).port}`;
  // A port that was open a moment ago and is closed now: connection refused.
  dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  deadBase = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
  await new Promise((resolve) => dead.close(resolve));
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => failing?.close(resolve));
  await new Promise((resolve) => asking?.close(resolve));
});

function configOf(s: RunningReferenceServer, change: Partial<TargetConfig> = {}): TargetConfig {
  return stagingConfigOf(s, change);
}

const diagnose = (config: TargetConfig) => diagnoseSetup(createApiClient(config), config);

describe('diagnoseSetup', () => {
  it('finds nothing wrong with a right setup', async () => {
    expect(await diagnose(configOf(server))).toEqual({});
  });

  it('names refused client credentials and the error code that came back', async () => {
    const config = configOf(server);
    config.credentials.clientSecret = 'not-the-client-secret';
    const { problem } = await diagnose(config);
    expect(problem).toMatch(
      /^client credentials refused: POST http:\S+\/api\/v1\/auth\/token answered HTTP 401 \S+; check CLIENT_ID and CLIENT_SECRET$/,
    );
    expect(problem).not.toContain('not-the-client-secret');
  });

  it('names a refused API key', async () => {
    const config = configOf(server);
    config.credentials.apiKeySecret = 'not-the-api-key-secret';
    const { problem } = await diagnose(config);
    expect(problem).toMatch(
      /^API key refused: GET \S+\/v1\/customers answered HTTP 40[13]\b.*check API_KEY_ID and API_KEY_SECRET/,
    );
  });

  it('names a wrong base path when every route answers 404', async () => {
    const { problem } = await diagnose(
      configOf(server, { apiBaseUrl: server.apiBaseUrl.replace(/api\/$/, 'wrong/api/') }),
    );
    expect(problem).toMatch(/^every route answers 404 \(.*\): check API_BASE_URL/);
  });

  it('names a wrong pet base path when the pet list answers 404', async () => {
    const petstoreBaseUrl = server.petstoreBaseUrl.replace(/\/v1$/, '/v2/v1');
    const { problem } = await diagnose(configOf(server, { petstoreBaseUrl }));
    expect(problem).toBe(
      `the pet list answers 404 (GET ${petstoreBaseUrl}/pets): check PETSTORE_BASE_URL, the base address of the pet demo interface ending with /v1`,
    );
  });

  it('skips only the pet checks when the pet base is unreachable', async () => {
    const diagnosis = await diagnose(configOf(server, { petstoreBaseUrl: `${deadBase}/v1` }));
    expect(diagnosis.problem).toBeUndefined();
    expect(diagnosis.petstoreUnavailable).toMatch(
      /^the pet demo interface cannot be reached \(.*refused.*\); check PETSTORE_BASE_URL$/,
    );
  });

  it('skips only the pet checks when the pet interface asks for credentials (not shown in the spec)', async () => {
    const diagnosis = await diagnose(configOf(server, { petstoreBaseUrl: `${askingBase}/v1` }));
    expect(diagnosis.problem).toBeUndefined();
    expect(diagnosis.petstoreUnavailable).toBe(
      `the pet demo interface asks for credentials (GET ${askingBase}/v1/pets answered HTTP 401); ` +
        'the spec does not show its authentication, so the pet checks cannot run',
    );
  });

  it('stops when the main service cannot be reached at all', async () => {
    const { problem } = await diagnose(configOf(server, { apiBaseUrl: `${deadBase}/api/` }));
    expect(problem).toMatch(/^cannot reach the target: .*refused/);
  });

  it('leaves a broken token route (5xx) to the checks: an API failure, not a setup mistake', async () => {
    const config = configOf(server, {
      apiBaseUrl: `${failingBase}/api/`,
      petstoreBaseUrl: `${failingBase}/v1`,
    });
    expect(await diagnose(config)).toEqual({});
  });

  it('never touches the pet interface of production', async () => {
    const config = configOf(server, { target: 'production', petstoreBaseUrl: `${deadBase}/v1` });
    expect(await diagnose(config)).toEqual({});
  });
});
