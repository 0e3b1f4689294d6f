// npm run compare:schemathesis [-- --fault NAME ... | --all] [--schemathesis PATH] [--max-examples N]
// Side by side with the peer: for the clean reference server and for each fault, one full
// `npm run conformance` (our suite) and one Schemathesis run with all its checks on each of the
// project's own documents (schemas/*.openapi.yaml), each timed. Prints the Schemathesis version,
// the table (fault, caught by us, caught by Schemathesis, time of each) and what Schemathesis
// complains about on the clean server. A fault counts as caught by Schemathesis when it reports a
// failure (check code and operation) that it does not report against the clean server.
// Needs Schemathesis: `pip install schemathesis` (its `st` on PATH, or --schemathesis PATH).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nodeArgsFor } from '../src/cli/node-command.ts';
import { FAULTS, type RunningReferenceServer, startReferenceServer } from '../src/reference/index.ts';
import { targetEnv } from './target-env.ts';

const ROOT = new URL('..', import.meta.url);

/** The faults a schema tool could see at all (answers, statuses, shapes), and the generated ones. */
const DEFAULT_FAULTS = [
  'page-zero-500',
  'page-not-integer-500',
  'malformed-json-500',
  'pet-unknown-field-500',
  'pet-id-unsafe-integer-500',
  'limit-unsafe-integer-500',
  'limit-number-notation-500',
  'pet-long-text-500',
  'pet-non-ascii-500',
  'token-empty-string-500',
  'repeated-query-500',
  'pet-tag-refused',
  'token-wrong-type-accepted',
  'pets-negative-limit-accepted',
  'nameless-pet-stored',
  'pet-status-outside-enum-stored',
  'pet-tag-dropped',
  'pet-non-ascii-mangled',
  'page-zero-first-page',
  'pet-without-name-accepted',
  'pets-limit-over-100',
  'pets-wrapped-in-object',
  'pet-id-as-string',
  'pet-status-outside-enum',
  'token-missing-access-token',
  'envelope-missing-extra',
  'pagination-numbers-as-strings',
  'user-me-array',
  'flags-html',
  'customers-text-content-type',
  'error-missing-message',
  'timestamp-not-iso',
  'unknown-pet-400',
];

interface Timed<T> {
  ms: number;
  value: T;
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Our whole suite against the server: the ids of the checks that failed (SHOULD ones too). */
async function ours(server: RunningReferenceServer, seed: string): Promise<string[]> {
  const reportsDir = await mkdtemp(join(tmpdir(), 'compare-ours-'));
  try {
    const { code, out } = await run(process.execPath, nodeArgsFor('src/cli/conformance.ts'), {
      ...targetEnv(server, reportsDir),
      CONFORMANCE_SEED: seed,
    });
    if (code === 2) throw new Error(`our run could not start: ${out.trim().split('\n').at(-1)}`);
    const results = JSON.parse(await readFile(join(reportsDir, 'results.json'), 'utf8')) as {
      checks: { id: string; status: string }[];
    };
    return results.checks.filter((ch) => ch.status === 'failed').map((ch) => ch.id);
  } finally {
    await rm(reportsDir, { recursive: true, force: true });
  }
}

async function tokenOf(server: RunningReferenceServer): Promise<string> {
  const res = await fetch(new URL('v1/auth/token', server.apiBaseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: server.credentials.clientId,
      client_secret: server.credentials.clientSecret,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  // Under token-missing-access-token the token hides under another name: any string will do.
  const token = Object.values(body).find((v) => typeof v === 'string' && v.length >= 16);
  return typeof token === 'string' ? token : 'no-token';
}

/** Schemathesis on both documents: its failures as "CODE METHOD PATH" (secrets only in headers). */
async function schemathesis(
  st: string,
  server: RunningReferenceServer,
  maxExamples: string,
): Promise<{ failures: string[]; errors: number }> {
  const reportDir = await mkdtemp(join(tmpdir(), 'compare-st-'));
  const token = await tokenOf(server);
  const c = server.credentials;
  const failures = new Set<string>();
  let errors = 0;
  try {
    const targets = [
      ['schemas/main-service.openapi.yaml', server.apiBaseUrl.replace(/\/$/, '')],
      ['schemas/petstore.openapi.yaml', server.petstoreBaseUrl],
    ] as const;
    for (const [i, [doc, url]] of targets.entries()) {
      const dir = join(reportDir, String(i));
      const { code, out } = await run(
        st,
        [
          'run',
          doc,
          '--url',
          url,
          '--checks',
          'all',
          // Without it Schemathesis stops at an operation's first failure, so a complaint it makes
          // on the clean server would hide a fault on the same operation.
          '--continue-on-failure',
          '--seed',
          '1',
          '--max-examples',
          maxExamples,
          '--workers',
          '2',
          '--no-color',
          '--report',
          'json',
          '--report-dir',
          dir,
          '-H',
          `x-api-key-id: ${c.apiKeyId}`,
          '-H',
          `x-api-key-secret: ${c.apiKeySecret}`,
          '-H',
          `Authorization: Bearer ${token}`,
        ],
        { ...process.env, NO_COLOR: '1' },
      );
      const file = (await readdir(dir).catch(() => [])).find((f) => f.endsWith('.json'));
      if (!file)
        throw new Error(`Schemathesis wrote no report (exit ${code}): ${out.trim().split('\n').at(-1)}`);
      const report = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
        failures?: { code: string; title: string; operations: string[] }[];
        errors?: { count: number }[];
      };
      for (const f of report.failures ?? [])
        for (const op of f.operations) failures.add(`${f.code} ${f.title}: ${op}`);
      errors += (report.errors ?? []).reduce((n, e) => n + e.count, 0);
    }
    return { failures: [...failures].sort(), errors };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

async function versionOf(st: string): Promise<string> {
  const { code, out } = await run(st, ['--version'], process.env).catch(() => ({ code: -1, out: '' }));
  if (code !== 0) return '';
  return out.trim().split('\n').at(-1) ?? '';
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fault: { type: 'string', multiple: true },
      all: { type: 'boolean', default: false },
      schemathesis: { type: 'string', default: process.env.SCHEMATHESIS ?? 'st' },
      'max-examples': { type: 'string', default: '50' },
      seed: { type: 'string', default: '20261124' },
    },
  });
  const st = values.schemathesis;
  const version = await versionOf(st);
  if (!version) {
    console.error(
      `compare:schemathesis: Schemathesis not found as "${st}": pip install schemathesis, or pass --schemathesis PATH`,
    );
    process.exit(2);
  }
  const names = values.all ? FAULTS.map((f) => f.name) : (values.fault ?? DEFAULT_FAULTS);
  const unknown = names.filter((n) => !FAULTS.some((f) => f.name === n));
  if (unknown.length) {
    console.error(
      `compare:schemathesis: unknown fault ${unknown.join(', ')} (npm run reference-server -- --list-faults)`,
    );
    process.exit(2);
  }
  console.log(
    `${version}; our suite with CONFORMANCE_SEED=${values.seed}; Schemathesis --seed 1 --max-examples ${values['max-examples']} --checks all --continue-on-failure`,
  );

  const measure = async (faults: string[]) => {
    // Ours against a server as the embedded target is configured; Schemathesis against the same
    // fault with the rate limiter off (a conformant configuration), so its hundreds of requests
    // are judged, not throttled.
    const mine = await startReferenceServer({ control: true, faults });
    const peer = await startReferenceServer({ faults, rateLimit: null });
    try {
      const us = await timed(() => ours(mine, values.seed));
      const them = await timed(() => schemathesis(st, peer, values['max-examples']));
      return { us, them };
    } finally {
      await Promise.all([mine.close(), peer.close()]);
    }
  };

  const clean = await measure([]);
  const baseline = new Set(clean.them.value.failures);
  const rows: string[] = [
    '| fault | rule | caught by our suite | time | caught by Schemathesis | time |',
    '|---|---|---|---|---|---|',
    `| (clean server) | | ${clean.us.value.length ? `FAILED ${clean.us.value.join(', ')}` : 'passes'} | ${seconds(clean.us.ms)} | ${clean.them.value.failures.length} complaints (below) | ${seconds(clean.them.ms)} |`,
  ];
  let missed = 0;
  for (const name of names) {
    const { us, them } = await measure([name]);
    const rule = FAULTS.find((f) => f.name === name)?.rule ?? '';
    const fresh = them.value.failures.filter((f) => !baseline.has(f));
    const ourCell = us.value.length
      ? `yes (${us.value.slice(0, 3).join(', ')}${us.value.length > 3 ? ', ...' : ''})`
      : 'no';
    const theirCell = fresh.length
      ? `yes (${fresh
          .map((f) => f.split(':')[0])
          .filter((v, i, a) => a.indexOf(v) === i)
          .join(', ')})`
      : 'no';
    if (fresh.length && !us.value.length) missed++;
    rows.push(
      `| \`${name}\` | ${rule} | ${ourCell} | ${seconds(us.ms)} | ${theirCell} | ${seconds(them.ms)} |`,
    );
    console.error(
      `  ${name}: ours ${us.value.length ? 'caught' : 'missed'}, Schemathesis ${fresh.length ? 'caught' : 'missed'}`,
    );
  }
  console.log(`\n${rows.join('\n')}\n`);
  console.log('Schemathesis complaints against the clean reference server:');
  for (const f of clean.them.value.failures) console.log(`  - ${f}`);
  if (clean.them.value.errors)
    console.log(`  (and ${clean.them.value.errors} Schemathesis runtime error(s))`);
  console.log(
    missed === 0
      ? '\nOur suite catches every fault Schemathesis catches.'
      : `\n${missed} fault(s) caught by Schemathesis and not by our suite.`,
  );
  process.exitCode = missed === 0 && clean.us.value.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(
    `compare:schemathesis: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
  );
  process.exit(2);
});
