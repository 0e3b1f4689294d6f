// The conformance CLI started from any working directory (issue 33): vitest finds this project's
// configuration from the CLI's own place (src/runner/project-root.ts), not from the working
// directory, where it answered "No projects matched the filter "conformance"" and ran nothing. The
// reports still go where docs/reports.md says: reports/ of the working directory. The fault matrix
// (src/runner/variants.ts) had the same fault.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { ROOT, runTs } from '../support/run-node.ts';
import { reportsProblems, startCli, targetEnv } from './conformance-child.ts';

let server: RunningReferenceServer;
let cwd: string;
beforeAll(async () => {
  server = await startReferenceServer({ control: true });
  cwd = mkdtempSync(join(tmpdir(), 'elsewhere-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe('npm run conformance from another folder', () => {
  it('runs the checks, and writes reports/ of the working directory', async () => {
    const env = targetEnv(server, '');
    delete env.CONFORMANCE_REPORTS_DIR;
    delete env.CI;
    const run = startCli(['--area', 'user'], env, cwd);
    const { code, output } = await run.done;
    expect(output).not.toContain('No projects matched');
    expect(code, output).toBe(0);
    const dir = join(cwd, 'reports');
    expect(reportsProblems(dir)).toEqual([]);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.checks.some((c: { id: string }) => c.id.startsWith('USR-'))).toBe(true);
    expect(results.tool.name).toBe('payments-crm-conformance');
    // Named as the working directory sees them.
    expect(output).toContain('reports: reports/results.json');
  }, 120_000);

  it('npm run faults too: the suites are found from the project, not the working directory', async () => {
    // Before: "Cannot find module '<cwd>/suites/pets.test.ts?variant=0'" for every suite, fault not caught.
    const run = await runTs('src/cli/faults.ts', ['--fault', 'flags-html'], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(run.stdout + run.stderr).not.toContain('Cannot find module');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('1 of 1 faults caught by a check of their rule');
  }, 180_000);

  it('--version names the suite from anywhere', async () => {
    const run = await runTs('src/cli/conformance.ts', ['--version'], {
      cwd,
      env: { PATH: process.env.PATH },
    });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(run.stdout.trim()).toBe(`payments-crm-conformance ${version}`);
    expect(existsSync(join(cwd, 'package.json'))).toBe(false);
  }, 60_000);
});
