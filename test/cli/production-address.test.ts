// Production named by its address: a run labelled `staging` whose hosts are production's in
// another spelling (127.1, 2130706433) is production. The conformance run sends the stand-in
// production no write and no pet request, and the load launcher refuses before k6 with the reason.
// (The unit tests beside the guard show each spelling in both halves; this is the whole run.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { BLANK_TARGET, runLoadCli } from '../load/cli-run.ts';
import { runTs } from '../support/run-node.ts';

let server: RunningReferenceServer;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startReferenceServer({ control: true });
  dir = mkdtempSync(join(tmpdir(), 'production-address-'));
  const c = server.credentials;
  const other = (base: string, host: string) => base.replace('127.0.0.1', host);
  env = {
    ...process.env,
    ...BLANK_TARGET,
    CONFORMANCE_TARGET: 'staging',
    PRODUCTION_API_BASE_URL: server.apiBaseUrl,
    PRODUCTION_PETSTORE_BASE_URL: server.petstoreBaseUrl,
    API_BASE_URL: other(server.apiBaseUrl, '127.1'),
    PETSTORE_BASE_URL: other(server.petstoreBaseUrl, '2130706433'),
    CLIENT_ID: c.clientId,
    CLIENT_SECRET: c.clientSecret,
    API_KEY_ID: c.apiKeyId,
    API_KEY_SECRET: c.apiKeySecret,
    CONFORMANCE_SLOW: '0',
    CONFORMANCE_REPORTS_DIR: dir,
    K6_REPORT_DIR: dir,
  };
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a staging-labelled conformance run against production spelled 127.1 writes nothing and asks no pet', {
  timeout: 600_000,
}, async () => {
  server.control.reset();
  const run = await runTs('src/cli/conformance.ts', [], { env });
  const routes = Object.keys(server.control.requestCounts().byRoute);
  expect(routes.length, run.stderr.slice(-500)).toBeGreaterThan(0);
  expect(routes.filter((r) => r.includes('/petstore/'))).toEqual([]);
  const writes = routes.filter((r) => !/^(GET|HEAD|OPTIONS) /.test(r) && !r.endsWith('/api/v1/auth/token'));
  expect(writes).toEqual([]);
  expect(`${run.stdout}${run.stderr}`).toContain('127.0.0.1 is a production address');
});

it('the load launcher refuses it before k6, naming the address, and the server sees no request', {
  timeout: 120_000,
}, async () => {
  server.control.reset();
  const run = await runLoadCli(['release'], env);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('127.0.0.1 is a production address');
  expect(server.control.requestCounts().total).toBe(0);
});
