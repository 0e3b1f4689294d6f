// k6's peak memory against a hostile target, as figures. Each body a script must read is made
// hostile in turn (the token route, error answers, the flag-cache polls, the rate-limit polls), and
// the data routes whose bodies are discarded; each as a 200 MB body (declared), a body that never
// ends (REQUEST_TIMEOUT_MS 10 s) and a gzip bomb (declared about 200 KB, 200 MB once inflated), at
// the load profile's 20 users (the rate-limit probe is one sequence of requests: one user). Then the
// protection removed (a copy of load/ whose whyUnreadable() lets every body be read), at 2 users,
// to show what it holds back; such a run is stopped once k6 passes --kill-above-mb. And the residual
// the harness owns, protected, at 2 users: a target whose ask that shows the size and ask that reads differ.
// Prints k6's peak resident set (VmHWM, read while it runs), requests, bytes received, exit, verdict.
//   npm run bench:k6-memory [-- --users 20] [-- --seconds 15] [-- --mb 200] [-- --routes token,error]
//                           [-- --no-unprotected] [-- --unprotected-only] [-- --kill-above-mb 6000]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findK6, K6_INSTALL_HINT } from '../src/launcher/find-k6.ts';
import { type K6HostileKind, startK6HostileTarget } from '../test/load/hostile-api.ts';
import { k6RunMeasured } from '../test/load/k6-peak-memory.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

type Script = 'release' | 'flag-cache' | 'rate-limit';
type Body = 'huge' | 'endless' | 'gzip';

interface Route {
  name: string;
  label: string;
  script: Script;
  kind: Record<Body, K6HostileKind>;
  /** Token asks answered well first (setup's ask and read), so that every user asks its own. */
  goodTokenAsks?: number;
  /** Whether a body on this route is read (so the protection removed changes something). */
  read: boolean;
}

const ROUTES: Route[] = [
  {
    name: 'data',
    label: 'data routes, 200 (bodies discarded)',
    script: 'release',
    kind: { huge: 'huge-body', endless: 'endless-body', gzip: 'gzip-body' },
    read: false,
  },
  {
    name: 'token',
    label: "token route (each user's own token)",
    script: 'release',
    kind: { huge: 'token-huge', endless: 'token-endless', gzip: 'token-gzip' },
    goodTokenAsks: 2,
    read: true,
  },
  {
    name: 'error',
    label: 'error answers, 401 (SESSION_EXPIRED?)',
    script: 'release',
    kind: { huge: 'error-huge', endless: 'error-endless', gzip: 'error-gzip' },
    read: true,
  },
  {
    name: 'flags',
    label: 'flag-cache polls, 200',
    script: 'flag-cache',
    kind: { huge: 'huge-body', endless: 'endless-body', gzip: 'gzip-body' },
    read: true,
  },
  {
    name: 'limit',
    label: 'rate-limit polls, 429 (one probe)',
    script: 'rate-limit',
    kind: { huge: 'limited-huge', endless: 'limited-endless', gzip: 'limited-gzip' },
    read: true,
  },
];

/** The residual the harness owns (docs/misbehaving-targets.md): measured protected, at 2 users. */
const RESIDUAL: Route = {
  name: 'switch',
  label:
    'error answers that switch: small and declared on the ask that shows the size, huge without a length on the read',
  script: 'release',
  kind: { huge: 'error-switch', endless: 'error-switch', gzip: 'error-switch' },
  read: true,
};

interface Figures {
  peakRssMb: number | undefined;
  killed: boolean;
  exit: number | null;
  requests: number;
  receivedMb: number;
  verdict: string;
  unread: number;
}

/** A copy of load/ that reads every body (whyUnreadable says yes to any answer): the protection removed. */
function unprotectedLoad(): string {
  const dir = mkdtempSync(join(tmpdir(), 'k6-unprotected-'));
  cpSync(join(ROOT, 'load'), join(dir, 'load'), { recursive: true });
  const file = join(dir, 'load/lib/bounded-read.ts');
  const code = readFileSync(file, 'utf8');
  const head = /export function whyUnreadable\([^)]*\)[^{]*\{/.exec(code);
  if (!head) throw new Error('bench: whyUnreadable() not found in load/lib/bounded-read.ts');
  const at = head.index + head[0].length;
  writeFileSync(file, `${code.slice(0, at)}\n  if (status !== 0) return undefined;${code.slice(at)}`);
  return dir;
}

async function run(
  k6: string,
  loadDir: string,
  route: Route,
  body: Body,
  users: number,
  seconds: number,
  mb: number,
  killAboveMb: number,
): Promise<Figures> {
  const target = await startK6HostileTarget(route.kind[body], {
    hugeBytes: mb * 1024 * 1024,
    goodTokenAsks: route.goodTokenAsks ?? 0,
  });
  const dir = mkdtempSync(join(tmpdir(), 'k6-memory-'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    K6_NO_USAGE_REPORT: 'true',
    CONFORMANCE_TARGET: 'local',
    API_BASE_URL: target.apiBaseUrl,
    PETSTORE_BASE_URL: target.petstoreBaseUrl,
    API_KEY_ID: 'memory-key',
    API_KEY_SECRET: 'memory-key-secret-0000',
    CLIENT_ID: 'memory-client',
    CLIENT_SECRET: 'memory-client-secret-0000',
    K6_REPORT_DIR: dir,
    LOAD_PROFILE: 'load',
    REQUEST_TIMEOUT_MS: '10000',
    RELEASE_VUS: String(users),
    RELEASE_RAMP: '0s',
    RELEASE_DURATION: `${seconds}s`,
    RELEASE_THINK_TIME: '0.5s',
    FLAG_VUS: String(users),
    FLAG_DURATION: `${seconds}s`,
    FLAG_POLL_INTERVAL: '1s',
    RATE_BUDGET: `${Math.max(5, seconds)}s`,
  };
  try {
    const measured = await k6RunMeasured(k6, join(loadDir, 'load', `${route.script}.ts`), env, {
      killAboveMb,
    });
    let report:
      | { verdict: string; metrics: Record<string, { values: Record<string, number> } | undefined> }
      | undefined;
    try {
      report = JSON.parse(readFileSync(join(dir, `k6-${route.script}.json`), 'utf8'));
    } catch {
      report = undefined;
    }
    return {
      peakRssMb: measured.peakRssMb,
      killed: measured.killed === true,
      exit: measured.code,
      requests: report?.metrics.http_reqs?.values.count ?? 0,
      receivedMb: Math.round((report?.metrics.data_received?.values.count ?? 0) / (1024 * 1024)),
      verdict: report?.verdict ?? (measured.killed ? 'killed' : 'no report'),
      unread: report?.metrics.load_bodies_not_read?.values.count ?? 0,
    };
  } finally {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const BODY_LABEL: Record<Body, (mb: number) => string> = {
  huge: (mb) => `${mb} MB`,
  endless: () => 'endless',
  gzip: (mb) => `gzip bomb (${mb} MB inflated)`,
};

async function main(): Promise<void> {
  const k6 = findK6();
  if (!k6) throw new Error(K6_INSTALL_HINT);
  const users = option('users', 20);
  const seconds = option('seconds', 15);
  const mb = option('mb', 200);
  const killAboveMb = option('kill-above-mb', 6000);
  const at = process.argv.indexOf('--routes');
  const wanted = at >= 0 ? (process.argv[at + 1] ?? '').split(',') : [...ROUTES, RESIDUAL].map((r) => r.name);
  const routes = ROUTES.filter((r) => wanted.includes(r.name));
  const unprotectedOnly = process.argv.includes('--unprotected-only');
  console.log(`k6's peak memory, ${seconds} s per run, REQUEST_TIMEOUT_MS 10 s, against a hostile target`);
  console.log(
    '| hostile route | body | users | peak RSS of k6 | requests | received | not read | exit | verdict |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const line = (route: Route, body: Body, n: number, f: Figures, note = '') =>
    console.log(
      `| ${route.label}${note} | ${BODY_LABEL[body](mb)} | ${n} | ${f.peakRssMb ?? '?'} MB${f.killed ? ` (stopped past ${killAboveMb} MB)` : ''} | ${f.requests} | ${f.receivedMb} MB | ${f.unread} | ${f.exit} | ${f.verdict} |`,
    );
  if (!unprotectedOnly) {
    for (const route of routes) {
      for (const body of ['huge', 'endless', 'gzip'] as const) {
        const n = route.script === 'rate-limit' ? 1 : users;
        line(route, body, n, await run(k6, ROOT, route, body, n, seconds, mb, killAboveMb));
      }
    }
  }
  if (!unprotectedOnly && wanted.includes(RESIDUAL.name)) {
    line(RESIDUAL, 'huge', 2, await run(k6, ROOT, RESIDUAL, 'huge', 2, 5, mb, killAboveMb), ' (protected)');
  }
  if (process.argv.includes('--no-unprotected')) return;
  const copy = unprotectedLoad();
  try {
    // Two users, a few seconds: enough to show gigabytes without taking a shared machine.
    for (const route of routes.filter((r) => r.read)) {
      for (const body of ['huge', 'gzip'] as const) {
        const n = route.script === 'rate-limit' ? 1 : 2;
        line(route, body, n, await run(k6, copy, route, body, n, 5, mb, killAboveMb), ', protection removed');
      }
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
