// Time to a verdict, as figures: the k6 rate-limit probe against each limiter shape of the reference
// server, printing the true and the measured burst, rate and window, the error of each, and the
// probe's wall time.   npm run bench:load-probe [-- --long] [-- --profile load]
// --long adds the reference server's default limiter (600 per 60 s), about two minutes more.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSettings, resolveTarget } from '../src/config/index.ts';
import { findK6, K6_INSTALL_HINT } from '../src/launcher/find-k6.ts';
import { k6Environment } from '../src/launcher/k6-env.ts';
import { type RateLimit, startReferenceServer } from '../src/reference/index.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Case {
  name: string;
  limit: RateLimit;
  headers: boolean;
  truth: { burst: number; ratePerSecond: number; windowSeconds?: number };
}

const CASES: Case[] = [
  {
    name: 'fixed 1 s, 20, headers',
    limit: { limit: 20, windowSeconds: 1 },
    headers: true,
    truth: { burst: 20, ratePerSecond: 20, windowSeconds: 1 },
  },
  {
    name: 'fixed 10 s, 50, no headers',
    limit: { limit: 50, windowSeconds: 10 },
    headers: false,
    truth: { burst: 50, ratePerSecond: 5, windowSeconds: 10 },
  },
  {
    name: 'sliding 3 s, 24',
    limit: { limit: 24, windowSeconds: 3, shape: 'sliding-window' },
    headers: true,
    truth: { burst: 24, ratePerSecond: 8, windowSeconds: 3 },
  },
  {
    name: 'token bucket 30, 10/s',
    limit: { limit: 30, windowSeconds: 1, shape: 'token-bucket', refillPerSecond: 10 },
    headers: true,
    truth: { burst: 30, ratePerSecond: 10 },
  },
  {
    name: 'token bucket 100, 2/s',
    limit: { limit: 100, windowSeconds: 1, shape: 'token-bucket', refillPerSecond: 2 },
    headers: false,
    truth: { burst: 100, ratePerSecond: 2 },
  },
];
const LONG: Case = {
  name: 'fixed 60 s, 600 (default)',
  limit: { limit: 600, windowSeconds: 60 },
  headers: true,
  truth: { burst: 600, ratePerSecond: 10, windowSeconds: 60 },
};

interface Measured {
  burst?: number;
  ratePerSecond?: number;
  windowSeconds?: number;
  shape: string;
}

async function probe(
  k6: string,
  c: Case,
  profile: string,
): Promise<{ limit?: Measured; verdict: string; wallMs: number }> {
  const server = await startReferenceServer({ rateLimit: c.limit, rateLimitHeaders: c.headers });
  const dir = mkdtempSync(join(tmpdir(), 'bench-load-probe-'));
  try {
    const loaded = loadSettings({}, { envFile: false });
    if (!loaded.ok) throw new Error('the empty configuration should be valid');
    const env = k6Environment(resolveTarget(loaded.settings, server), {
      base: { PATH: process.env.PATH, HOME: process.env.HOME, LOAD_PROFILE: profile },
      reportDir: dir,
      petstore: false,
      control: false,
    });
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(k6, ['run', '--quiet', join(ROOT, 'load/rate-limit.ts')], { env, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', () => resolve());
    });
    const wallMs = Date.now() - started;
    const report = JSON.parse(readFileSync(join(dir, 'k6-rate-limit.json'), 'utf8')) as {
      verdict: string;
      analysis?: { limit?: Measured };
    };
    return {
      ...(report.analysis?.limit ? { limit: report.analysis.limit } : {}),
      verdict: report.verdict,
      wallMs,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const error = (measured: number | undefined, truth: number | undefined) =>
  measured === undefined || truth === undefined
    ? '-'
    : `${(((measured - truth) / truth) * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const k6 = findK6();
  if (!k6) {
    process.stderr.write(`bench: ${K6_INSTALL_HINT}\n`);
    process.exit(2);
  }
  const args = process.argv.slice(2);
  const profile = args.includes('--profile') ? (args[args.indexOf('--profile') + 1] ?? 'smoke') : 'smoke';
  const cases = args.includes('--long') ? [...CASES, LONG] : CASES;
  const header = [
    'limiter',
    'shape found',
    'burst true/measured (err)',
    'rate true/measured (err)',
    'window true/measured (err)',
    'verdict',
    'time',
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    const { limit, verdict, wallMs } = await probe(k6, c, profile);
    const t = c.truth;
    rows.push([
      c.name,
      limit?.shape ?? '-',
      `${t.burst} / ${limit?.burst ?? '-'} (${error(limit?.burst, t.burst)})`,
      `${t.ratePerSecond} / ${limit?.ratePerSecond ?? '-'} (${error(limit?.ratePerSecond, t.ratePerSecond)})`,
      t.windowSeconds === undefined
        ? '-'
        : `${t.windowSeconds} / ${limit?.windowSeconds ?? '-'} (${error(limit?.windowSeconds, t.windowSeconds)})`,
      verdict,
      `${(wallMs / 1000).toFixed(1)} s`,
    ]);
    process.stderr.write(`bench: ${c.name} done in ${(wallMs / 1000).toFixed(1)} s\n`);
  }
  process.stdout.write(`k6 rate-limit probe, ${profile} profile, reference server on this machine\n\n`);
  process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
  for (const r of rows) process.stdout.write(`| ${r.join(' | ')} |\n`);
}

await main();
