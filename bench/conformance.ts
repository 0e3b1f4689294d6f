// npm run bench [-- --runs 5 --latency 50 --no-server-bench]
// Wall time of full conformance runs against the embedded reference server, with no added latency
// and with --latency ms on every response, the requests each run sent (by route), then the
// server's own throughput (bench/server.ts). Figures are printed; nothing is asserted.
//
// Each run is a real `npm run conformance` process. The benchmark starts the reference server
// itself (control on, so every check runs as it does against the embedded target) and hands it to
// the run as a configured target, so that it can add latency and read the server's request counts.
// Reports go to a temporary directory: the user's reports/ stay as they were.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../src/reference/index.ts';
import { targetEnv } from './target-env.ts';
import { timedConformanceRun } from './timed-run.ts';

const ROOT = new URL('..', import.meta.url);

interface RunFigures {
  wallMs: number;
  exitCode: number | null;
  requests: number;
  byRoute: Record<string, number>;
  tokenRequests: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function runConformance(env: NodeJS.ProcessEnv): Promise<{ wallMs: number; exitCode: number | null }> {
  const run = await timedConformanceRun(env);
  if (run.exitCode === 2) throw new Error(`the conformance run could not start: ${run.stderrTail}`);
  return run;
}

async function measure(latencyMs: number, runs: number): Promise<RunFigures[]> {
  const server = await startReferenceServer({ control: true, latencyMs });
  const reportsDir = await mkdtemp(join(tmpdir(), 'conformance-bench-'));
  const figures: RunFigures[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      server.control.reset();
      const { wallMs, exitCode } = await runConformance(targetEnv(server, reportsDir));
      const counts = server.control.requestCounts();
      figures.push({
        wallMs,
        exitCode,
        requests: counts.total,
        byRoute: counts.byRoute,
        tokenRequests: counts.tokenRequests,
      });
    }
  } finally {
    await server.close();
    await rm(reportsDir, { recursive: true, force: true });
  }
  return figures;
}

function report(label: string, figures: RunFigures[]): void {
  const walls = figures.map((f) => f.wallMs);
  const last = figures.at(-1);
  const failedRuns = figures.filter((f) => f.exitCode !== 0).length;
  console.log(`\n${label}`);
  console.log(`  wall time: median ${(median(walls) / 1000).toFixed(2)} s over ${figures.length} runs`);
  console.log(
    `             (min ${(Math.min(...walls) / 1000).toFixed(2)} s, max ${(Math.max(...walls) / 1000).toFixed(2)} s)`,
  );
  if (failedRuns)
    console.log(`  WARNING: ${failedRuns} run(s) did not pass; the figures may not be comparable`);
  if (!last) return;
  console.log(`  requests per run: ${last.requests} (token requests ${last.tokenRequests})`);
  const routes = Object.entries(last.byRoute).sort(([, a], [, b]) => b - a);
  for (const [route, n] of routes) console.log(`    ${String(n).padStart(5)}  ${route}`);
}

function serverBench(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts', '--duration', '5'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('close', () => resolve());
    child.on('error', (error) => {
      console.log(`bench:server could not run: ${error.message}`);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      latency: { type: 'string', default: '50' },
      'no-server-bench': { type: 'boolean', default: false },
    },
  });
  const runs = Number(values.runs);
  const latency = Number(values.latency);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(latency) || latency < 0) {
    throw new Error('--runs must be a positive integer and --latency a whole number of milliseconds');
  }
  console.log(`conformance benchmark: ${runs} full runs each, Node ${process.version}`);
  report('embedded reference server, no added latency', await measure(0, runs));
  report(`embedded reference server, ${latency} ms added to every response`, await measure(latency, runs));
  if (!values['no-server-bench']) {
    console.log('\nreference server throughput (bench/server.ts, 5 s per route):');
    await serverBench();
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${(error as Error).message.split('\n')[0]}`);
  process.exit(2);
});
