// What a split release run sustains on this machine, as figures: `npm run load:release -- --runners N`
// for N = 1, 2 and 4 against the reference server (its own process here, so its CPU is counted
// apart), the users pausing not at all, so k6 and the server go as fast as the cores allow; then
// `npm run merge:load` over the 4-runner outputs, its time and peak memory.
//   npm run bench:split-load [-- --seconds 20 --vus 32]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadReport } from '../load/lib/summary/report.ts';
import { findK6, K6_INSTALL_HINT } from '../src/launcher/find-k6.ts';
import { DEFAULT_CREDENTIALS } from '../src/reference/index.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const SECONDS = arg('seconds', 20);
const VUS = arg('vus', 32);

const k6 = findK6();
if (!k6) {
  process.stderr.write(`${K6_INSTALL_HINT}\n`);
  process.exit(2);
}

/** CPU seconds of a process so far (utime + stime from /proc), or NaN off Linux. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The machine's busy CPU seconds so far, every process (other users of the machine included). */
function machineBusy(): number {
  const [, ...f] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const n = f.map(Number);
  return (n.reduce((a, b) => a + b, 0) - (n[3] ?? 0) - (n[4] ?? 0)) / 100;
}

async function startServer(): Promise<{ origin: string; pid: number; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/reference-server.ts'), '--port', '0', '--rate-limit', 'off'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`the reference server ended (${code}): ${out}`)));
  });
  child.stdout.resume();
  return { origin, pid: child.pid as number, stop: () => child.kill('SIGTERM') };
}

interface Figures {
  runners: number;
  requests: number;
  perSecond: number;
  p95: number;
  serverCpu: number;
  /** The launcher and its k6 runners. */
  k6Cpu: number;
  machineCpu: number;
  load: number;
  wall: number;
  dir: string;
}

async function run(runners: number): Promise<Figures> {
  const server = await startServer();
  const dir = mkdtempSync(join(tmpdir(), `bench-split-${runners}-`));
  const env = {
    ...process.env,
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: `${server.origin}/api/`,
    PETSTORE_BASE_URL: `${server.origin}/petstore/v1`,
    CLIENT_ID: DEFAULT_CREDENTIALS.clientId,
    CLIENT_SECRET: DEFAULT_CREDENTIALS.clientSecret,
    API_KEY_ID: DEFAULT_CREDENTIALS.apiKeyId,
    API_KEY_SECRET: DEFAULT_CREDENTIALS.apiKeySecret,
    K6_REPORT_DIR: dir,
    RELEASE_PETS: 'off',
    PATH: `${join(k6 as string, '..')}:${process.env.PATH}`,
  };
  const serverBefore = cpuSeconds(server.pid);
  const machineBefore = machineBusy();
  const started = Date.now();
  // /usr/bin/time reports the CPU of the launcher and every k6 it waited for.
  const cli = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'cpu %U %S',
      process.execPath,
      '--import',
      'tsx',
      join(ROOT, 'src/cli/load.ts'),
      'release',
      '--runners',
      String(runners),
      '--profile',
      'smoke',
      '--env',
      `RELEASE_VUS=${VUS}`,
      '--env',
      `RELEASE_DURATION=${SECONDS}s`,
      '--env',
      'RELEASE_THINK_TIME=0s',
      '--quiet',
    ],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  const wall = (Date.now() - started) / 1000;
  const serverCpu = cpuSeconds(server.pid) - serverBefore;
  const machineCpu = machineBusy() - machineBefore;
  server.stop();
  if (cli.status !== 0) {
    process.stderr.write(cli.stdout + cli.stderr);
    throw new Error(`--runners ${runners} ended with exit ${cli.status}`);
  }
  const [user, system] = (/cpu ([\d.]+) ([\d.]+)\s*$/.exec(cli.stderr) ?? []).slice(1).map(Number);
  const k6Cpu = (user ?? Number.NaN) + (system ?? Number.NaN);
  const report = JSON.parse(readFileSync(join(dir, 'k6-release.json'), 'utf8')) as LoadReport;
  const users = report.metrics['http_req_duration{scenario:users}']?.values ?? {};
  const requests = users.count ?? 0;
  return {
    runners,
    requests,
    perSecond: requests / SECONDS,
    p95: users['p(95)'] ?? Number.NaN,
    serverCpu,
    k6Cpu,
    machineCpu,
    wall,
    load: loadavg()[0] ?? Number.NaN,
    dir,
  };
}

const figures: Figures[] = [];
process.stdout.write(
  `split release runs: ${VUS} users, no think time, ${SECONDS} s, reference server in its own process, ${cpus().length} cores\n`,
);
for (const n of [1, 2, 4]) {
  const f = await run(n);
  figures.push(f);
  process.stdout.write(
    `  ${n} runner(s): ${f.requests} user requests, ${f.perSecond.toFixed(0)} req/s, p95 ${f.p95.toFixed(1)} ms; CPU over ${f.wall.toFixed(0)} s wall: k6 + launcher ${f.k6Cpu.toFixed(1)} s, server ${f.serverCpu.toFixed(1)} s, whole machine ${f.machineCpu.toFixed(1)} s of ${(f.wall * cpus().length).toFixed(0)} (load average ${f.load.toFixed(1)}); CPU per request: k6 ${((f.k6Cpu / f.requests) * 1000).toFixed(2)} ms, server ${((f.serverCpu / f.requests) * 1000).toFixed(2)} ms\n`,
  );
}

const four = figures.find((f) => f.runners === 4) as Figures;
const dirs = [1, 2, 3, 4].map((i) => join(four.dir, 'runners', `runner-${i}`));
const bytes = dirs.reduce((a, d) => a + statSync(join(d, 'samples.jsonl')).size, 0);
const out = mkdtempSync(join(tmpdir(), 'bench-merge-'));
const merge = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/merge-load.ts'), ...dirs], {
  cwd: ROOT,
  env: { ...process.env, K6_REPORT_DIR: out },
  encoding: 'utf8',
});
const line = merge.stdout.split('\n').find((l) => l.startsWith('merged verdict:')) ?? merge.stdout;
const samples = (JSON.parse(readFileSync(join(out, 'k6-release.json'), 'utf8')) as LoadReport).figures;
process.stdout.write(
  `merge:load of the 4-runner outputs (${(bytes / 2 ** 20).toFixed(1)} MiB of k6 JSON): ${line}\n  ${samples.map((f) => `${f.label}: ${f.value}`).join('\n  ')}\n`,
);
for (const f of figures) rmSync(f.dir, { recursive: true, force: true });
rmSync(out, { recursive: true, force: true });
