// A bad value given with --env is refused before k6 starts, exit 2, as the same value in .env is.
// Before: `npm run load:release -- --env RELEASE_VUS=abc` reached k6, which threw in its init
// stage (exit 107) and left the previous run's reports standing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envArgs } from '../../src/launcher/args.ts';
import { planProblem } from '../../src/launcher/plan-check.ts';
import { runLoadCli } from '../load/cli-run.ts';

describe('envArgs', () => {
  it('reads every spelling k6 accepts, the last value winning', () => {
    expect(
      envArgs(['--env', 'RELEASE_VUS=4', '-e', 'A=x=y', '--env=B=', '--quiet', '--env', 'RELEASE_VUS=5']),
    ).toEqual({ RELEASE_VUS: '5', A: 'x=y', B: '' });
  });

  it('adds nothing for a name without a value (k6 passes the environment value on)', () => {
    expect(envArgs(['--env', 'RELEASE_VUS', '-e'])).toEqual({});
  });

  it('makes the plan check see the value k6 would see', () => {
    const env = { ...envArgs(['--env', 'RELEASE_VUS=abc']) };
    expect(planProblem('release', env, false)).toMatch(/RELEASE_VUS/);
    expect(planProblem('release', envArgs(['--env', 'RELEASE_VUS=3']), false)).toBeUndefined();
  });
});

describe('npm run load:release -- --env RELEASE_VUS=abc', () => {
  it('exits 2 with one line naming the variable, before k6 or the server start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-args-'));
    try {
      const run = await runLoadCli(['release', '--env', 'RELEASE_VUS=abc'], { CONFORMANCE_REPORTS_DIR: dir });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/refusing to run release: .*RELEASE_VUS/);
      expect(run.stderr).not.toMatch(/reference server .* at http/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
