// `npm run conformance` against a reference server set up wrongly from the user's side: a wrong
// client secret, a wrong base path, a wrong pet base path and a dead pet base. The first three stop
// before the checks with exit 2, one line and the reports saying why; the last skips the pet checks,
// with that reason, and runs the rest; a pet base that takes the connection and drops it does not
// (a crash is never inconclusive). The diagnosis's own requests are the run's: a 5xx to one of
// them alone fails the run like any other.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { startForwardingProxy } from '../support/forwarding-proxy.ts';
import { runTs } from '../support/run-node.ts';

let server: RunningReferenceServer;
let deadPetBase: string;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startReferenceServer();
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  deadPetBase = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/v1`;
  await new Promise((resolve) => dead.close(resolve));
});

afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function conformance(change: Record<string, string>, args: string[] = []) {
  const reportsDir = mkdtempSync(join(tmpdir(), 'setup-diagnosis-'));
  dirs.push(reportsDir);
  const c = server.credentials;
  const env = {
    ...process.env,
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: server.apiBaseUrl,
    PETSTORE_BASE_URL: server.petstoreBaseUrl,
    CLIENT_ID: c.clientId,
    CLIENT_SECRET: c.clientSecret,
    API_KEY_ID: c.apiKeyId,
    API_KEY_SECRET: c.apiKeySecret,
    PINNED_API_KEY_ID: '',
    PINNED_API_KEY_SECRET: '',
    EXPIRED_ACCESS_TOKEN: '',
    DISABLED_FEATURE_ROUTE: '',
    REFERENCE_CONTROL_URL: '',
    CONFORMANCE_SLOW: '0',
    CONFORMANCE_STRICT: '0',
    CONFORMANCE_REPORTS_DIR: reportsDir,
    FORCE_COLOR: '0',
    ...change,
  };
  const run = await runTs('src/cli/conformance.ts', args, { env });
  // A selection reports to filtered/.
  const at = args.length ? join(reportsDir, 'filtered') : reportsDir;
  const results = JSON.parse(readFileSync(join(at, 'results.json'), 'utf8')) as {
    exitCode: number;
    problems: string[];
    checks: {
      id: string;
      area: string;
      status: string;
      reason?: string;
      exchanges?: { method: string; url: string; status?: number }[];
    }[];
  };
  return { ...run, results };
}

describe('a run whose setup is wrong', { timeout: 120_000 }, () => {
  it('wrong client secret: exit 2, one line naming the credentials and the code that came back', async () => {
    const run = await conformance({ CLIENT_SECRET: 'a-rotated-client-secret' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^client credentials refused: POST \S+v1\/auth\/token answered HTTP 401 \S+; check CLIENT_ID and CLIENT_SECRET$/,
      ),
    ]);
    expect(run.results.problems).toEqual([run.stderr.trim()]);
    expect(run.stdout + run.stderr).not.toContain('a-rotated-client-secret');
  });

  it('wrong base path: exit 2, one line pointing at API_BASE_URL', async () => {
    const run = await conformance({ API_BASE_URL: server.apiBaseUrl.replace(/api\/$/, 'v2/api/') });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^every route answers 404 .*check API_BASE_URL/),
    ]);
  });

  // Before: exit 1 and every pet check failed on the same 404 (14 of them), where the same mistake
  // in API_BASE_URL was one line and exit 2.
  it('wrong pet base path: exit 2, one line pointing at PETSTORE_BASE_URL, as a wrong API base', async () => {
    const run = await conformance({ PETSTORE_BASE_URL: server.petstoreBaseUrl.replace(/\/v1$/, '/v2/v1') });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^the pet list answers 404 \(GET \S+\/v2\/v1\/pets\): check PETSTORE_BASE_URL/),
    ]);
    expect(run.results.problems).toEqual([run.stderr.trim()]);
  });

  it('dead pet base: the pet checks skip with the reason, the rest runs and passes', async () => {
    const run = await conformance({ PETSTORE_BASE_URL: deadPetBase });
    expect(run.code, run.stdout.slice(-2000)).toBe(0);
    expect(run.stderr).toMatch(/the pet demo interface cannot be reached \(.*\); check PETSTORE_BASE_URL/);
    const pets = run.results.checks.filter((c) => c.area === 'pets');
    expect(pets.length).toBeGreaterThan(0);
    for (const check of pets) {
      expect(check.status).toBe('skipped');
      // A relation over the run's pet exchanges had none to compare: inconclusive, never passed.
      expect(check.reason).toMatch(
        check.id.startsWith('REL-') ? /^inconclusive/ : /pet demo interface cannot be reached/,
      );
    }
    expect(
      run.results.checks.filter((c) => c.area !== 'pets' && c.status === 'passed').length,
    ).toBeGreaterThan(20);
  });

  // Before: exit 0, "every check passed". A target whose first answer on the pet interface is a
  // 500 (a cold start) gave it to the diagnosis, whose requests nobody judged, and served the checks.
  it('a 5xx answered only to the diagnosis fails the run, the exchange shown as sent', async () => {
    let coldStart = true;
    const proxy = await startForwardingProxy(new URL(server.apiBaseUrl).origin, {
      rewrite: (body, _status, seen) => {
        if (!coldStart || !seen.url.includes('/petstore/v1/pets')) return body;
        coldStart = false;
        return { status: 500, body: '{"message":"warming up"}' };
      },
    });
    try {
      const run = await conformance(
        { API_BASE_URL: `${proxy.origin}/api/`, PETSTORE_BASE_URL: `${proxy.origin}/petstore/v1` },
        ['--check', 'PET-LIST*'],
      );
      expect(run.code, run.stdout.slice(-2000)).toBe(1);
      const no5xx = run.results.checks.find((c) => c.id === 'INV-NO-5XX');
      expect(no5xx?.status).toBe('failed');
      expect(no5xx?.reason).toMatch(/GET \/petstore\/v1\/pets\S* -> 500, sent by the setup diagnosis/);
      expect(no5xx?.exchanges?.[0]).toMatchObject({ method: 'GET', status: 500 });
      expect(no5xx?.exchanges?.[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/petstore\/v1\/pets/);
      // The checks themselves were served: only the diagnosis met the 500.
      const listed = run.results.checks.filter((c) => c.id.startsWith('PET-LIST'));
      expect(listed.length).toBeGreaterThan(0);
      for (const c of listed) expect(c.status, c.id).toBe('passed');
    } finally {
      await proxy.close();
    }
  });

  // Before: exit 0, every pet check skipped as "cannot be reached". A pet interface that takes the
  // connection and drops it unanswered crashed on the request: a crash is never inconclusive.
  it('a pet interface that drops every request unanswered: its checks run and fail, exit 1', async () => {
    const dropping = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/v1`;
      const run = await conformance({ PETSTORE_BASE_URL: base }, ['--check', 'PET-LIST*']);
      expect(run.code, run.stdout.slice(-2000)).toBe(1);
      expect(run.stderr).not.toMatch(/cannot be reached/);
      const list = run.results.checks.find((c) => c.id === 'PET-LIST');
      expect(list?.status).toBe('failed');
      expect(list?.reason).toMatch(/connection to 127\.0\.0\.1:\d+ reset during GET \S+\/v1\/pets/);
    } finally {
      dropping.closeAllConnections();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});
