// load/k8s/runner.sh, the command of each pod of load/k8s/split-job.yaml, run here as two pods
// would (JOB_COMPLETION_INDEX 0 and 1, one shared folder) with real k6 against a reference server:
// their shares are what `npm run merge:load` reads, the second runner uses its numbered client
// (CLIENT_ID_2), both start paused and resume at the shared-volume barrier, and the merge gives one
// verdict. Skipped only where neither k6 nor Go is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { ROOT } from './cli-run.ts';
import { k6, noK6, removeReportDirs, reportDir } from './k6-run.ts';

afterAll(removeReportDirs);
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function pod(index: number, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [join(ROOT, 'load/k8s/runner.sh')], {
      env: { ...env, JOB_COMPLETION_INDEX: String(index) },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(noK6)('load/k8s/runner.sh: two pods, one shared folder, one merged verdict', () => {
  it('each pod leaves a share merge:load reads; a numbered client replaces the shared one', {
    timeout: 120_000,
  }, async () => {
    const own = { clientId: 'pod-2-client', clientSecret: 'pod-2-secret-c41e' };
    const server = await startReferenceServer({ rateLimit: null, extraClients: [own] });
    const shared = reportDir('k6-k8s-shared-');
    try {
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        K6: k6 as string,
        K6_NO_USAGE_REPORT: 'true',
        RUNNERS: '2',
        SHARED: shared,
        SCRIPT: join(ROOT, 'load/release.ts'),
        CONFORMANCE_TARGET: 'local',
        API_BASE_URL: server.apiBaseUrl,
        CLIENT_ID: server.credentials.clientId,
        CLIENT_SECRET: server.credentials.clientSecret,
        CLIENT_ID_2: own.clientId,
        CLIENT_SECRET_2: own.clientSecret,
        LOAD_PROFILE: 'smoke',
        RELEASE_VUS: '4',
        RELEASE_DURATION: '6s',
        RELEASE_PETS: 'off',
      };
      // Each pod's k6 REST API on its own port: here the two pods share one network.
      const ports = ['6611', '6612'];
      const pods = await Promise.all([
        pod(0, { ...env, K6_API_PORT: ports[0] }),
        pod(1, { ...env, K6_API_PORT: ports[1] }),
      ]);
      for (const p of pods) expect(p.code, p.output).toBe(0);
      // Both waited at the barrier: paused, marked ready, resumed together.
      for (const n of ['runner-1', 'runner-2']) expect(existsSync(join(shared, n, 'ready'))).toBe(true);
      expect(pods[1]?.output).toMatch(/runner-2 \(1\/2:1\): k6 exited 0/);
      const dirs = ['runner-1', 'runner-2'].map((n) => join(shared, n));
      const meta = dirs.map((d) => JSON.parse(readFileSync(join(d, 'runner.json'), 'utf8')));
      expect(meta.map((m) => [m.segment, m.sequence, m.exitCode, m.credential])).toEqual([
        ['0:1/2', '0,1/2,1', 0, server.credentials.clientId],
        ['1/2:1', '0,1/2,1', 0, own.clientId],
      ]);
      const merged = join(shared, 'merged');
      const merge = spawnSync(
        process.execPath,
        ['--import', TSX, join(ROOT, 'src/cli/merge-load.ts'), ...dirs],
        {
          cwd: ROOT,
          encoding: 'utf8',
          env: { ...process.env, K6_REPORT_DIR: merged },
        },
      );
      expect(merge.status, merge.stdout + merge.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(merged, 'k6-release.json'), 'utf8')) as LoadReport;
      expect(report.verdict).toBe('passed');
      // The thresholds came from k6 inspect (options.json): the release profile's, per endpoint.
      expect(report.thresholds.map((t) => `${t.metric}: ${t.expression}`)).toContain(
        'http_req_duration{endpoint:customers}: p(95)<1000',
      );
      for (const d of dirs) {
        for (const file of ['runner.json', 'k6.log', 'k6-release.json']) {
          expect(readFileSync(join(d, file), 'utf8')).not.toContain(own.clientSecret);
        }
      }
    } finally {
      await server.close();
    }
  });
});
