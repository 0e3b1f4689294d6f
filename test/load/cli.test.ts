// `npm run load:*` without real k6: configuration and guard refusals, the missing-k6 hint, an
// unreachable target, and what reaches k6 (a stand-in k6 records its argv and environment).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refusedK6Variables } from '../../src/launcher/k6-env.ts';
import { fakeK6, runLoadCli } from './cli-run.ts';

const STAGING = {
  CONFORMANCE_TARGET: 'staging',
  API_BASE_URL: 'http://127.0.0.1:9/api/', // discard port: nothing listens there
  PETSTORE_BASE_URL: 'http://127.0.0.1:9/petstore/v1',
  CLIENT_ID: 'client',
  CLIENT_SECRET: 'cli-test-client-secret',
  API_KEY_ID: 'key',
  API_KEY_SECRET: 'cli-test-api-key-secret',
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** PATH with only node's own directory and a stand-in k6: neither real k6 nor Go is found. */
function isolatedPath(k6Dir?: string): string {
  return [k6Dir, join(process.execPath, '..')].filter(Boolean).join(':');
}

const oneLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((l) => !/^npm warn/.test(l));

// Each case starts Node with tsx (a second or more on a busy machine; 60 s failed at load 35).
describe.concurrent('npm run load:* refuses before starting k6', { timeout: 300_000 }, () => {
  it('a bad configuration: one message, exit 2, no secret', async () => {
    const run = await runLoadCli(['rate-limit'], { ...STAGING, API_BASE_URL: 'not a url' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Configuration invalid: 1 problem/);
    expect(run.stderr).toMatch(/API_BASE_URL/);
    expect(run.stderr).not.toContain(STAGING.CLIENT_SECRET);
  });

  it('production without ALLOW_PRODUCTION_WRITES=yes: the guard reason, exit 2', async () => {
    const run = await runLoadCli(['release'], { ...STAGING, CONFORMANCE_TARGET: 'production' });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'load: refusing to run release against production: load against production is off (set ALLOW_PRODUCTION_WRITES=yes to allow it)',
    ]);
  });

  it('the pet list against production even with the switch on', async () => {
    const env = { ...STAGING, CONFORMANCE_TARGET: 'production', ALLOW_PRODUCTION_WRITES: 'yes' };
    const run = await runLoadCli(['release'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/pet demo interface is never exercised against production.*RELEASE_PETS=off/);
  });

  it('a missing k6: one line saying how to install it, exit 2', async () => {
    const home = mkdtempSync(join(tmpdir(), 'no-k6-home-'));
    dirs.push(home);
    const run = await runLoadCli(['rate-limit'], {
      ...STAGING,
      PATH: isolatedPath(),
      HOME: home,
      // Not the project's own build either (npm test's pretest puts one there).
      K6_PROJECT_DIR: home,
    });
    expect(run.code).toBe(2);
    const lines = oneLine(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /k6 is not installed: run `go install go\.k6\.io\/k6@v1\.7\.0`.*package manager/,
    );
  });

  it('a plan the script would refuse: one line, exit 2, before k6 (flag-cache smoke against a remote target)', async () => {
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const run = await runLoadCli(['flag-cache', '--profile', 'smoke'], {
      ...STAGING,
      PATH: isolatedPath(k6.dir),
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      "load: refusing to run flag-cache: the smoke profile cannot judge the flag cache of a remote target: a conclusive run polls for two 60 s windows and more (at least 150 s, and the target's flags must change meanwhile); use --profile load (150 s) or set FLAG_DURATION",
    ]);
    const soak = await runLoadCli(['rate-limit', '--profile', 'soak'], {
      ...STAGING,
      PATH: isolatedPath(k6.dir),
    });
    expect(oneLine(soak.stderr)).toEqual([
      'load: refusing to run rate-limit: LOAD_PROFILE="soak" does not apply to rate-limit: expected one of smoke, load, stress',
    ]);
    expect(existsSync(k6.argvFile)).toBe(false);
  });

  it('an unreachable target: one line, exit 2, k6 never started', async () => {
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const run = await runLoadCli(['rate-limit'], { ...STAGING, PATH: isolatedPath(k6.dir) });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'load: cannot reach the target: connection refused by 127.0.0.1:9 (API_BASE_URL of the staging target)',
    ]);
    expect(existsSync(k6.argvFile)).toBe(false);
  });

  it('bad arguments: one line with the usage, exit 2', async () => {
    const unknown = await runLoadCli(['spike'], STAGING);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^load: unknown load script "spike"/);
    const reserved = await runLoadCli(
      ['rate-limit', '--env', `CLIENT_SECRET=${STAGING.CLIENT_SECRET}`],
      STAGING,
    );
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toMatch(/--env CLIENT_SECRET=\.\.\. is not allowed/);
    expect(reserved.stderr).not.toContain(STAGING.CLIENT_SECRET);
  });
});

describe('what reaches k6 (a stand-in k6, the local reference server)', { timeout: 300_000 }, () => {
  it('target and secrets in the environment only, options in argv, exit 99 -> 1', async () => {
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const reports = join(k6.dir, 'reports');
    const run = await runLoadCli(
      ['release', '--profile', 'stress', '--env', 'RELEASE_VUS=3', '--', '--quiet'],
      {
        PATH: isolatedPath(k6.dir),
        CONFORMANCE_REPORTS_DIR: reports,
        FAKE_K6_EXIT: '99',
        API_BASE_URL: 'https://leftover.example.test/api/',
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^load: reference server \(local target\): rate limit off at http:\/\/127\.0\.0\.1:\d+\/api\//,
    );
    expect(run.stderr).toMatch(/load: failed \(k6 exit code 99\)/);
    const argv = readFileSync(k6.argvFile, 'utf8').trim().split('\n');
    // k6's REST API off; --quiet was given, so not added twice.
    expect(argv.slice(0, 5)).toEqual(['run', '--address=', '--env', 'RELEASE_VUS=3', '--quiet']);
    expect(argv[5]).toMatch(/\/load\/release\.ts$/);
    expect(argv.join(' ')).not.toMatch(/secret/i);
    const env = Object.fromEntries(
      readFileSync(k6.envFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    // The target once, as the validated configuration: no target variable beside it (the leftover
    // API_BASE_URL of the user's environment included), secrets in the environment only.
    expect(env).toMatchObject({ K6_NO_USAGE_REPORT: 'true' });
    // The profile travels with the target (--profile), never as a variable set for k6.
    expect(env.LOAD_PROFILE).toBeUndefined();
    // k6's dashboard report beside the others, its server on an ephemeral loopback port only.
    expect(env).toMatchObject({
      K6_WEB_DASHBOARD: 'true',
      K6_WEB_DASHBOARD_EXPORT: join(reports, 'k6-release.html'),
      K6_WEB_DASHBOARD_HOST: '127.0.0.1',
      K6_WEB_DASHBOARD_PORT: '0',
      K6_WEB_DASHBOARD_PERIOD: '1s',
    });
    for (const name of ['CONFORMANCE_TARGET', 'API_BASE_URL', 'CLIENT_SECRET', 'K6_REPORT_DIR']) {
      expect(env[name], name).toBeUndefined();
    }
    const handed = JSON.parse(env.LOAD_TARGET ?? '{}');
    expect(handed).toMatchObject({
      profile: 'stress',
      target: 'local',
      clientId: 'local-conformance-client',
      clientSecret: 'local-client-secret-do-not-use-elsewhere',
      apiKeySecret: 'local-api-key-secret-do-not-use-elsewhere',
      allowProductionWrites: false,
      reportDir: reports,
    });
    expect(handed.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    expect(handed.petstoreBaseUrl).toMatch(/\/petstore\/v1$/);
    expect(handed.controlUrl).toBeUndefined();
    expect(existsSync(reports)).toBe(true);
  });

  it("in a log: --quiet added and the verdict line last; an earlier run's dashboard left alone; --live on 127.0.0.1:5665", async () => {
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const reports = join(k6.dir, 'r');
    mkdirSync(reports);
    writeFileSync(join(reports, 'k6-release.html'), 'an earlier run');
    const base = { PATH: isolatedPath(k6.dir), K6_REPORT_DIR: reports };
    const argv = () => readFileSync(k6.argvFile, 'utf8').trim().split('\n');
    const env = () => readFileSync(k6.envFile, 'utf8');
    const logged = await runLoadCli(['release'], base);
    expect(logged.code).toBe(0);
    expect(argv().slice(0, 3)).toEqual(['run', '--address=', '--quiet']);
    expect(env()).toMatch(/^K6_WEB_DASHBOARD_PORT=0$/m);
    expect(logged.stderr.trim().split('\n').at(-1)).toBe('load: passed (exit 0)');
    // The stand-in k6 writes no report: the earlier run's dashboard is that run's, and stays
    // (a run removes nothing of another run's; only its own report names a dashboard).
    expect(readFileSync(join(reports, 'k6-release.html'), 'utf8')).toBe('an earlier run');

    const live = await runLoadCli(['release', '--live', '--', '--address', '127.0.0.1:0'], base);
    expect(live.code).toBe(0);
    expect(argv().slice(0, 4)).toEqual(['run', '--quiet', '--address', '127.0.0.1:0']);
    expect(env()).toMatch(/^K6_WEB_DASHBOARD_PORT=5665$/m);
    expect(env()).toMatch(/^K6_WEB_DASHBOARD_HOST=127\.0\.0\.1$/m);
    expect(live.stderr).toContain('load: live dashboard at http://127.0.0.1:5665');
  });

  it('gives flag-cache the control API, and rate-limit nothing of the limiter it is to measure', async () => {
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const read = () =>
      Object.fromEntries(
        readFileSync(k6.envFile, 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
    const handed = () => JSON.parse(read().LOAD_TARGET ?? '{}');
    const base = { PATH: isolatedPath(k6.dir), K6_REPORT_DIR: join(k6.dir, 'r') };
    const flags = await runLoadCli(['flag-cache'], base);
    expect(flags.code).toBe(0);
    expect(handed().controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__control\/$/);
    expect(handed().petstoreBaseUrl).toBeUndefined();
    const rate = await runLoadCli(['rate-limit'], {
      ...base,
      LOCAL_RATE_LIMIT: '40',
      LOCAL_RATE_WINDOW: '5',
    });
    expect(rate.code).toBe(0);
    expect(rate.stderr).toMatch(/rate limit 40 requests per 5 s with RateLimit headers/);
    expect(Object.keys(read()).filter((name) => name.startsWith('RATE_'))).toEqual([]);
    const own = await runLoadCli(['rate-limit'], { ...base, RATE_EXPECTED_BURST: '40' });
    expect(own.code).toBe(0);
    expect(read()).toMatchObject({ RATE_EXPECTED_BURST: '40' });
  });
});

// The operator's K6_* environment must not change a verdict or print traffic: K6_NO_THRESHOLDS
// once turned 44 failed redirect checks into "passed", K6_HTTP_DEBUG=full printed the client secret.
describe('k6 runs with an environment the launcher chose', { timeout: 300_000 }, () => {
  it('refuses to start k6 with a verdict- or output-changing K6_* variable set, naming each (exit 2)', async () => {
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const run = await runLoadCli(['release', '--profile', 'smoke'], {
      PATH: isolatedPath(k6.dir),
      CONFORMANCE_REPORTS_DIR: join(k6.dir, 'reports'),
      K6_NO_THRESHOLDS: 'true',
      K6_HTTP_DEBUG: 'full',
      K6_NO_USAGE_REPORT: 'true',
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('refusing to start k6 with K6_HTTP_DEBUG, K6_NO_THRESHOLDS set');
    expect(existsSync(k6.argvFile), 'k6 was never started').toBe(false);
  });

  it('passes k6 none of them even when called as a library (defence in depth)', () => {
    expect(
      refusedK6Variables({ K6_OUT: 'json=x', K6_VUS: '9', K6_NO_COLOR: '1', K6_REPORT_DIR: 'r' }),
    ).toEqual(['K6_OUT', 'K6_VUS']);
  });
});
