// npm run bench:hostile-paths [-- --runs 2]
// Wall time of full conformance runs through a proxy that rewrites the `path` of error answers:
// unchanged (the usual run), 60,000 slashes on every one, one 5 MiB path of slashes (the first
// error answer), and 5 MiB on every one (over 1 GB through the proxy: its time is mostly the
// transfer's). A quadratic pass over the path took 5.4 s per 60,000-slash answer (about 20 minutes
// a run); a linear one must keep a run within its usual time. The kinds alternate, so a busy
// machine slows each alike. Figures are printed; nothing is asserted
// (test/cli/hostile-slash-paths.test.ts asserts the end).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../src/reference/index.ts';
import { stagingThrough, startForwardingProxy } from '../test/support/forwarding-proxy.ts';
import { timedConformanceRun } from './timed-run.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
const runs = Math.max(1, Number(values.runs) || 2);

// `answers`: how many error answers get the path (the first ones of the run); all when unset.
const KINDS: { label: string; path: string | null; answers?: number }[] = [
  { label: 'usual (path unchanged)', path: null },
  { label: '60,000 slashes on every error', path: `${'/'.repeat(60_000)}x` },
  { label: 'one 5 MiB path of slashes', path: `${'/'.repeat(5 * 1024 * 1024)}x`, answers: 1 },
  { label: '5 MiB of slashes on every error', path: `${'/'.repeat(5 * 1024 * 1024)}x` },
];

const server = await startReferenceServer({ control: true });
const seconds = new Map<string, number[]>(KINDS.map((k) => [k.label, []]));
const cpus = new Map<string, number[]>(KINDS.map((k) => [k.label, []]));
const users = new Map<string, number[]>(KINDS.map((k) => [k.label, []]));
const codes = new Map<string, (number | null)[]>(KINDS.map((k) => [k.label, []]));
try {
  for (let i = 0; i < runs; i++) {
    for (const kind of KINDS) {
      const { path } = kind;
      let left = kind.answers ?? Number.POSITIVE_INFINITY;
      const proxy = await startForwardingProxy(server.apiBaseUrl, {
        // Every answer is read whole and written again in both kinds, so only the path differs.
        rewrite: (body, status) => {
          if (path === null || status < 400 || !body.startsWith('{') || left <= 0) return body;
          left -= 1;
          try {
            return JSON.stringify({ ...JSON.parse(body), path });
          } catch {
            return body;
          }
        },
      });
      const dir = mkdtempSync(join(tmpdir(), 'bench-hostile-paths-'));
      try {
        server.control.reset();
        const timed = await timedConformanceRun(stagingThrough(proxy.origin, server.credentials, dir));
        const out = { seconds: timed.wallMs / 1000, cpu: timed.cpuSeconds, code: timed.exitCode };
        seconds.get(kind.label)?.push(out.seconds);
        cpus.get(kind.label)?.push(out.cpu);
        users.get(kind.label)?.push(timed.userSeconds);
        codes.get(kind.label)?.push(out.code);
        console.log(
          `run ${i + 1}: ${kind.label}: ${out.seconds.toFixed(1)} s wall, ${out.cpu.toFixed(1)} s CPU (${timed.userSeconds.toFixed(1)} user, ${timed.systemSeconds.toFixed(1)} system), exit ${out.code}`,
        );
      } finally {
        await proxy.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
} finally {
  await server.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const against = (m: number, usual: number) => (usual > 0 ? ` (${((m / usual - 1) * 100).toFixed(1)} %)` : '');
const usualWall = median(seconds.get(KINDS[0]?.label ?? '') ?? []);
const usualCpu = median(cpus.get(KINDS[0]?.label ?? '') ?? []);
const usualUser = median(users.get(KINDS[0]?.label ?? '') ?? []);
console.log(
  `\nmedians of ${runs} run(s) each, against the usual run (load average ${loadavg()[0]?.toFixed(1)}):`,
);
for (const kind of KINDS) {
  const wall = median(seconds.get(kind.label) ?? []);
  const cpu = median(cpus.get(kind.label) ?? []);
  const user = median(users.get(kind.label) ?? []);
  console.log(
    `  ${kind.label}: ${wall.toFixed(1)} s wall${against(wall, usualWall)}, ${cpu.toFixed(1)} s CPU${against(cpu, usualCpu)} of which user ${user.toFixed(1)} s${against(user, usualUser)}, exits ${codes.get(kind.label)?.join(', ')}`,
  );
}
