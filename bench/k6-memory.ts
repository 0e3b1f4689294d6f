// k6's peak memory against a hostile target's bodies, as figures: load:release with the load
// profile's users (20) against a target whose every data route answers a 200 MB body, then one
// whose bodies never end, each for --seconds (default 20). Prints k6's maximum resident set size
// (/usr/bin/time -v), the requests made and the bytes received.
//   npm run bench:k6-memory [-- --users 20] [-- --seconds 20] [-- --mb 200] [-- --huge-only]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findK6, K6_INSTALL_HINT } from '../src/launcher/find-k6.ts';
import { type K6HostileKind, startK6HostileTarget } from '../test/load/hostile-api.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

interface Figures {
  maxRssMb: number;
  exit: number | null;
  requests: number;
  receivedMb: number;
  verdict: string;
}

function run(k6: string, kind: K6HostileKind, users: number, seconds: number, mb: number): Promise<Figures> {
  return startK6HostileTarget(kind, { hugeBytes: mb * 1024 * 1024 }).then(async (target) => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-memory-'));
    const timeFile = join(dir, 'time.txt');
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      K6_NO_USAGE_REPORT: 'true',
      CONFORMANCE_TARGET: 'local',
      API_BASE_URL: target.apiBaseUrl,
      PETSTORE_BASE_URL: target.petstoreBaseUrl,
      CLIENT_ID: 'memory-client',
      CLIENT_SECRET: 'memory-client-secret-0000',
      K6_REPORT_DIR: dir,
      LOAD_PROFILE: 'load',
      RELEASE_VUS: String(users),
      RELEASE_RAMP: '0s',
      RELEASE_DURATION: `${seconds}s`,
      RELEASE_THINK_TIME: '0.5s',
    };
    try {
      const exit = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(
          '/usr/bin/time',
          [
            '-v',
            '-o',
            timeFile,
            k6,
            'run',
            '--quiet',
            '--address',
            '127.0.0.1:0',
            join(ROOT, 'load/release.ts'),
          ],
          { env, stdio: 'ignore' },
        );
        child.on('error', reject);
        child.on('close', resolve);
      });
      const rssKb = Number(
        /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'))?.[1],
      );
      const report = JSON.parse(readFileSync(join(dir, 'k6-release.json'), 'utf8')) as {
        verdict: string;
        metrics: Record<string, { values: Record<string, number> }>;
      };
      return {
        maxRssMb: Math.round(rssKb / 1024),
        exit,
        requests: report.metrics.http_reqs?.values.count ?? 0,
        receivedMb: Math.round((report.metrics.data_received?.values.count ?? 0) / (1024 * 1024)),
        verdict: report.verdict,
      };
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

async function main(): Promise<void> {
  const k6 = findK6();
  if (!k6) throw new Error(K6_INSTALL_HINT);
  const users = option('users', 20);
  const seconds = option('seconds', 20);
  const mb = option('mb', 200);
  console.log(`k6 load:release, ${users} users for ${seconds} s, think 0.5 s, against a hostile target`);
  console.log('| data routes answer | max RSS of k6 | requests | received | exit | verdict |');
  console.log('|---|---|---|---|---|---|');
  for (const [kind, label] of [
    ['huge-body', `${mb} MB bodies`],
    ['endless-body', 'bodies that never end (10 s timeout)'],
  ] as const) {
    if (kind === 'endless-body' && process.argv.includes('--huge-only')) continue;
    const f = await run(k6, kind, users, seconds, mb);
    console.log(
      `| ${label} | ${f.maxRssMb} MB | ${f.requests} | ${f.receivedMb} MB | ${f.exit} | ${f.verdict} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
