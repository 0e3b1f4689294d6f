// Every variable is read from .env and the environment alike, and every switch takes the same words,
// end to end through the two commands. Before: CONFORMANCE_REPORTS_DIR and the load runs' variables
// in .env were ignored (read from the environment only), CONFORMANCE_STRICT=yes was refused while
// ALLOW_PRODUCTION_WRITES wanted yes, RELEASE_PETS=no listed pets (only `off` switched them off),
// and a slip such as API_KEY_SECRT=oops in .env got no word. Each command runs in a temporary
// folder with its own .env; a reports folder that is a file stops a conformance run before any
// request (exit 2, one line naming it), so the runs are quick.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VARIABLES } from '../../common/variables.ts';
import { BLANK_TARGET, fakeK6 } from '../load/cli-run.ts';
import { runTs } from '../support/run-node.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding this .env (and a file named a-file), and an environment without our variables. */
function folderWith(dotenv: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = mkdtempSync(join(tmpdir(), 'dotenv-alike-'));
  dirs.push(cwd);
  writeFileSync(join(cwd, '.env'), dotenv);
  writeFileSync(join(cwd, 'a-file'), 'not a folder');
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const v of VARIABLES) delete env[v.name];
  return { cwd, env };
}

const FOLDER_REFUSED = /^conformance: the reports folder \S*a-file is a file, not a folder/m;

describe('npm run conformance', () => {
  it('reads CONFORMANCE_REPORTS_DIR from .env (exit 2 naming the folder .env gave)', async () => {
    const { cwd, env } = folderWith('CONFORMANCE_REPORTS_DIR=a-file\n');
    const run = await runTs('src/cli/conformance.ts', [], { cwd, env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(FOLDER_REFUSED);
  }, 120_000);

  it('takes CONFORMANCE_STRICT=yes and CONFORMANCE_SLOW=off as ALLOW_PRODUCTION_WRITES takes yes', async () => {
    const { cwd, env } = folderWith('CONFORMANCE_REPORTS_DIR=a-file\nCONFORMANCE_SLOW=off\n');
    const run = await runTs('src/cli/conformance.ts', [], {
      cwd,
      env: { ...env, CONFORMANCE_STRICT: 'yes' },
    });
    expect(run.stderr).not.toMatch(/Configuration invalid/);
    expect(run.stderr).toMatch(FOLDER_REFUSED);
  }, 120_000);

  it('names a slip in .env with the variable probably meant, never its value', async () => {
    const { cwd, env } = folderWith('CONFORMANCE_REPORTS_DIR=a-file\nAPI_KEY_SECRT=oops-a-secret-value\n');
    const run = await runTs('src/cli/conformance.ts', [], { cwd, env });
    expect(run.stderr).toContain(
      'config: API_KEY_SECRT (in .env) is not a variable of this project and is ignored; did you mean API_KEY_SECRET?',
    );
    expect(run.stderr + run.stdout).not.toContain('oops-a-secret-value');
  }, 120_000);
});

describe('npm run load:release', () => {
  /** The load CLI in the folder, k6 a stand-in that records what it was given. */
  async function release(dotenv: string, extra: NodeJS.ProcessEnv = {}) {
    const { cwd, env } = folderWith(dotenv);
    const k6 = fakeK6();
    dirs.push(k6.dir);
    const blank = Object.fromEntries(
      Object.keys(BLANK_TARGET)
        .filter((name) => name !== 'FORCE_COLOR')
        .map((name) => [name, undefined]),
    );
    const run = await runTs('src/cli/load.ts', ['release'], {
      cwd,
      env: { ...env, ...blank, K6_REPORT_DIR: join(cwd, 'reports'), PATH: `${k6.dir}:${env.PATH}`, ...extra },
    });
    let k6Env: string | undefined;
    try {
      k6Env = readFileSync(k6.envFile, 'utf8');
    } catch {
      k6Env = undefined;
    }
    return { run, k6Env };
  }

  it('reads the load variables from .env: a bad RELEASE_VUS there is refused before k6 (exit 2)', async () => {
    const { run, k6Env } = await release('RELEASE_VUS=abc\n');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/RELEASE_VUS="abc" is not valid/);
    expect(k6Env, 'k6 was started').toBeUndefined();
  }, 120_000);

  it('switches the pets off with RELEASE_PETS=no, as with off', async () => {
    const { run, k6Env } = await release('', { RELEASE_PETS: 'no' });
    expect(k6Env, run.stderr).toBeDefined();
    const handOver = JSON.parse(/^LOAD_TARGET=(.*)$/m.exec(k6Env ?? '')?.[1] ?? '{}');
    expect(handOver.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    expect(handOver.petstoreBaseUrl).toBeUndefined();
  }, 120_000);

  it('refuses a word no switch takes (RELEASE_PETS=maybe) before k6, exit 2', async () => {
    const { run, k6Env } = await release('', { RELEASE_PETS: 'maybe' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/RELEASE_PETS="maybe" is not valid: expected on \(1, yes, true or on\)/);
    expect(k6Env).toBeUndefined();
  }, 120_000);
});
