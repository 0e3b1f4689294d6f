// `npm run release-check`'s own answers (its steps run end to end in test/ci/workflows.test.ts):
// --help lists what it runs, its exit codes and the docs page; a wrong option is one line, exit 2.
import { describe, expect, it } from 'vitest';
import { runTs } from '../support/run-node.ts';

describe('npm run release-check', { timeout: 60_000 }, () => {
  it('--help: usage on stdout, the steps, the exit codes and the docs page, exit 0', async () => {
    const run = await runTs('src/cli/release-check.ts', ['--help'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run release-check /);
    expect(run.stdout).toContain('npm run conformance, load:rate-limit, load:flag-cache and load:release');
    expect(run.stdout).toMatch(
      /exit codes: 0 passed, 1 a step failed .*\n.*3 nothing failed but a probe proved nothing/,
    );
    expect(run.stdout).toContain('docs/load.md');
  });

  it('refuses an unknown option before running anything, exit 2', async () => {
    const run = await runTs('src/cli/release-check.ts', ['--profiel', 'smoke'], { env: { ...process.env } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^release-check: Unknown option '--profiel'/);
  });
});
