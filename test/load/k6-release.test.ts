// The release profile in real k6 against a conformant server whose tokens live 10 s: renewals are
// expected behaviour (their SESSION_EXPIRED answers counted as expected, not as errors; the error thresholds judged on
// what users saw), so a clean smoke run passes; with the renewal broken (every renewed token is
// the expired one again) it fails. And an interrupted `npm run load:*` (SIGTERM, SIGINT) still
// writes its reports, marked interrupted, with exit 143/130.
// Skipped only on a machine with neither k6 nor Go.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { stagingThrough, startForwardingProxy } from '../support/forwarding-proxy.ts';
import { BLANK_TARGET, ROOT } from './cli-run.ts';
import {
  junitFailures,
  k6,
  MISSING_K6,
  noK6,
  removeReportDirs,
  reportDir,
  reports,
  runK6,
} from './k6-run.ts';

afterAll(removeReportDirs);

// RELEASE_P95_MS: these runs judge renewals, errors and interruptions, not latency; a 1 s budget
// fails with no fault on a busy machine (p95 1.27 s at load 14 here).
const SMOKE = {
  LOAD_PROFILE: 'smoke',
  RELEASE_P95_MS: '60000',
  RELEASE_DURATION: '22s',
  RELEASE_THINK_TIME: '0.5s',
  RELEASE_PETS: 'off',
};
const count = (report: LoadReport, name: string) => report.metrics[name]?.values.count ?? 0;

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * `npm run load:<script>` against a staging target (a reference server behind a proxy that counts
 * requests), sent `signal` once k6 has made `afterRequests` requests: timed from what k6 did, not
 * from a clock, so a busy machine that starts k6 slowly cannot interrupt it before its first request.
 */
async function interruptedCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  signal: NodeJS.Signals,
  afterRequests: number,
): Promise<{ code: number | null; stderr: string }> {
  const server = await startReferenceServer({ rateLimit: null });
  let child: ChildProcess | undefined;
  let seen = 0;
  const proxy = await startForwardingProxy(server.apiBaseUrl, {
    onRequest: () => {
      seen += 1;
      if (seen === afterRequests) child?.kill(signal);
    },
  });
  try {
    return await new Promise((resolve, reject) => {
      const dir = env.K6_REPORT_DIR ?? '';
      child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/load.ts'), ...args], {
        cwd: ROOT,
        env: { ...BLANK_TARGET, ...stagingThrough(proxy.origin, server.credentials, dir), ...env },
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      child.stdout?.resume();
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  } finally {
    await proxy.close();
    await server.close();
  }
}

describe.skipIf(noK6)(
  'release and interrupted runs in real k6 (skipped only where neither k6 nor Go is installed)',
  { timeout: 120_000 },
  () => {
    beforeAll(() => {
      if (!k6) throw new Error(MISSING_K6);
    });

    describe.concurrent('tokens that live 10 s', () => {
      it('a clean smoke run passes: SESSION_EXPIRED answers counted as expected, errors judged after the renewals', async () => {
        const run = await runK6('release', { tokenTtlSeconds: 10, rateLimit: null }, SMOKE);
        expect(run.code, run.output).toBe(0);
        const { json } = reports(run, 'release');
        expect(json.verdict).toBe('passed');
        expect(count(json, 'release_token_renewals')).toBeGreaterThanOrEqual(2);
        expect(count(json, 'release_session_expired')).toBe(count(json, 'release_token_renewals'));
        // k6's own failure rate counts the SESSION_EXPIRED answers: judging by it would have failed.
        expect(json.metrics['http_req_failed{endpoint:user-me}']).toBeUndefined();
        expect(json.metrics.http_req_failed?.values.passes ?? 0).toBeGreaterThan(0);
        expect(json.metrics.release_errors?.values.rate).toBe(0);
      });

      it('with the renewal broken (every renewed token already expired) it fails', async () => {
        const run = await runK6(
          'release',
          { tokenTtlSeconds: 10, rateLimit: null, faults: ['renewal-returns-stale-token'] },
          SMOKE,
        );
        expect(run.code, run.output).toBe(99);
        const { json, junit } = reports(run, 'release');
        expect(json.verdict).toBe('failed');
        expect(json.metrics.release_errors?.values.rate).toBeGreaterThan(0.01);
        expect(junitFailures(junit)).toContain('release_errors{endpoint:user-me}: rate<0.01');
      });
    });

    describe.concurrent('an interrupted npm run load:* still writes its summary, marked interrupted', () => {
      it.each([
        ['SIGTERM', 143],
        ['SIGINT', 130],
      ] as const)('%s: exit %i, all three reports say interrupted', async (signal, exitCode) => {
        const dir = reportDir('k6-interrupted-');
        const run = await interruptedCli(
          ['release', '--profile', 'smoke', '--env', 'RELEASE_DURATION=60s', '--quiet'],
          {
            PATH: [dirname(k6 as string), process.env.PATH].join(delimiter),
            K6_REPORT_DIR: dir,
            RELEASE_PETS: 'off',
          },
          signal,
          20,
        );
        expect(run.code, run.stderr).toBe(exitCode);
        expect(run.stderr).toContain(`load: interrupted by ${signal}: the reports are marked "interrupted"`);
        const json = JSON.parse(readFileSync(join(dir, 'k6-release.json'), 'utf8')) as LoadReport;
        expect(json).toMatchObject({ verdict: 'interrupted', passed: false });
        expect(json.verdictReason).toMatch(new RegExp(`^stopped by ${signal} before the end`));
        // What was learnt so far is kept.
        expect(json.metrics.http_reqs?.values.count).toBeGreaterThan(0);
        expect(readFileSync(join(dir, 'k6-release.md'), 'utf8').split('\n')[0]).toBe(
          '# k6 release: INTERRUPTED',
        );
        const junit = readFileSync(join(dir, 'k6-release.junit.xml'), 'utf8');
        expect(junitFailures(junit)).toContain('the run put its rule to the test');
      });
    });
  },
);
