// `npm run conformance` with a bad configuration, end to end: exit code 2 before any request, one
// message naming every faulty variable, no stack trace, no secret. The CLI runs in a temporary
// directory, so the .env it reads is the test's own and never the repository's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblems } from '../../src/config/index.ts';
import { type NodeRun, runTs } from '../support/run-node.ts';
import { KNOWN_VARIABLES, load, SECRETS } from './helpers.ts';

type Run = NodeRun;

/** The CLI in `cwd` with exactly these configuration variables (none inherited from this process). */
function conformance(cwd: string, variables: Record<string, string>): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env, FORCE_COLOR: '0' };
  for (const name of KNOWN_VARIABLES) delete env[name];
  Object.assign(env, variables);
  return runTs('src/cli/conformance.ts', [], { cwd, env });
}

// A target that counts what reaches it: a bad configuration must stop the run before any request.
let server: Server;
let requests = 0;
let origin = '';
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'config-cli-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A complete staging configuration whose addresses are the counting server. */
function reachable(): Record<string, string> {
  return {
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: `${origin}/api/`,
    PETSTORE_BASE_URL: `${origin}/petstore/v1`,
    CLIENT_ID: 'cli-client',
    CLIENT_SECRET: SECRETS.CLIENT_SECRET,
    API_KEY_ID: 'cli-key',
    API_KEY_SECRET: SECRETS.API_KEY_SECRET,
    PINNED_API_KEY_ID: 'cli-pinned',
    PINNED_API_KEY_SECRET: SECRETS.PINNED_API_KEY_SECRET,
    EXPIRED_ACCESS_TOKEN: SECRETS.EXPIRED_ACCESS_TOKEN,
    REQUEST_TIMEOUT_MS: '60000',
  };
}

function expectConfigurationError(run: Run, variables: string[]): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^Configuration invalid: \d+ problems? \(see \.env\.example\)\n/);
  for (const name of variables) expect(run.stderr).toMatch(new RegExp(`^  ${name}: `, 'm'));
  expect(run.stderr, 'no stack trace').not.toMatch(/^\s+at /m);
  for (const secret of Object.values(SECRETS)) expect(run.stderr).not.toContain(secret);
}

describe('conformance CLI with a bad configuration', { timeout: 120_000 }, () => {
  it('exits 2 before any request, naming every problem, with no stack trace and no secret', async () => {
    const cases: [Record<string, string>, string[]][] = [
      // Only one variable wrong, everything else would reach the counting server.
      [{ ...reachable(), DISABLED_FEATURE_ROUTE: 'reports' }, ['DISABLED_FEATURE_ROUTE']],
      [{ ...reachable(), API_BASE_URL: origin }, ['API_BASE_URL']],
      [{ ...reachable(), REQUEST_TIMEOUT_MS: 'ten seconds' }, ['REQUEST_TIMEOUT_MS']],
      [{ ...reachable(), CONFORMANCE_TARGET: 'prod\u2603' }, ['CONFORMANCE_TARGET']],
      [
        { ...reachable(), ALLOW_PRODUCTION_WRITES: 'maybe', CONFORMANCE_TARGET: 'production' },
        ['ALLOW_PRODUCTION_WRITES'],
      ],
      // A malformed secret, and a secret pasted into the wrong variable.
      [
        {
          ...reachable(),
          CLIENT_SECRET: `${SECRETS.CLIENT_SECRET}\u0007`,
          CONFORMANCE_SLOW: SECRETS.API_KEY_SECRET,
        },
        ['CLIENT_SECRET', 'CONFORMANCE_SLOW'],
      ],
      // Nothing but the target.
      [
        { CONFORMANCE_TARGET: 'staging' },
        ['API_BASE_URL', 'PETSTORE_BASE_URL', 'CLIENT_ID', 'CLIENT_SECRET', 'API_KEY_ID', 'API_KEY_SECRET'],
      ],
    ];
    const cwd = tempDir();
    const runs = await Promise.all(cases.map(([variables]) => conformance(cwd, variables)));
    for (const [i, run] of runs.entries()) expectConfigurationError(run, cases[i]?.[1] ?? []);
    expect(requests, 'requests that reached the target').toBe(0);
  });

  it('reads .env from its working directory, under the real environment', async () => {
    const cwd = tempDir();
    writeFileSync(
      join(cwd, '.env'),
      Object.entries({
        ...reachable(),
        API_BASE_URL: 'https://from-file.example.com/',
        CONFORMANCE_STRICT: 'maybe',
      })
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    );
    const run = await conformance(cwd, { CONFORMANCE_STRICT: '1' });
    expectConfigurationError(run, ['API_BASE_URL']);
    expect(run.stderr.split('\n')[0]).toBe('Configuration invalid: 1 problem (see .env.example)');
    expect(run.stderr).toContain('"https://from-file.example.com/" does not end with /api/');
    expect(requests).toBe(0);
  });

  it('names an unreadable .env', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.env'));
    const run = await conformance(cwd, {});
    expectConfigurationError(run, []);
    expect(run.stderr).toContain(`${join(cwd, '.env')}: the .env file cannot be read (EISDIR)`);
  });

  it('prints exactly the message of loadSettings for random bad configurations', async () => {
    // Values a process environment can carry: no NUL, no lone surrogate halves.
    const value = fc
      .string({ unit: 'binary', maxLength: 30 })
      .filter((v) => !v.includes('\u0000') && !/[\ud800-\udfff]/u.test(v));
    const bad = fc
      .record(Object.fromEntries(KNOWN_VARIABLES.map((name) => [name, value])), { requiredKeys: [] })
      .map((env) => env as Record<string, string>)
      .filter((env) => !load(env).ok);
    const samples = fc.sample(bad, 6);
    const cwd = tempDir();
    const runs = await Promise.all(samples.map((env) => conformance(cwd, env)));
    for (const [i, run] of runs.entries()) {
      const result = load(samples[i] ?? {});
      if (result.ok) throw new Error('the sample was filtered to bad configurations');
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`${formatProblems(result.problems)}\n`);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
    expect(requests).toBe(0);
  });
});
