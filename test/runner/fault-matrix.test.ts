// The fault matrix as a self-test: the suites pass against the clean reference server and against
// conformant servers that choose differently where the spec is silent, and every named fault is
// caught by a check of the very rule it breaks. Runs `npm run faults -- --json` in its own process
// (vitest cannot run inside a vitest worker).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/runner/fault-matrix.ts';
import { type NodeRun, runTs } from '../support/run-node.ts';

function runFaults(): Promise<NodeRun> {
  // The matrix is always local; a developer's target settings must not reach it.
  return runTs('src/cli/faults.ts', ['--json'], {
    env: { ...process.env, CONFORMANCE_TARGET: 'local', CONFORMANCE_STRICT: '0' },
  });
}

describe('fault matrix', () => {
  let matrix: Matrix;
  let exitCode: number | null;

  beforeAll(async () => {
    const run = await runFaults();
    exitCode = run.code;
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    try {
      matrix = JSON.parse(line) as Matrix;
    } catch {
      throw new Error(`npm run faults printed no matrix (exit ${run.code}): ${run.stderr.slice(-500)}`);
    }
  }, 240_000);

  it('every check passes against the clean reference server', () => {
    expect(matrix.clean.checks.length).toBeGreaterThan(40);
    expect(matrix.clean.checks.filter((c) => c.state === 'failed')).toEqual([]);
  });

  it('every fault is caught by a check of the rule it breaks', () => {
    const uncaught = matrix.faults.filter((row) => row.caughtBy.length === 0);
    expect(uncaught.map((row) => `${row.fault} (${row.rule})`)).toEqual([]);
    expect(matrix.faults.length).toBeGreaterThanOrEqual(30);
  });

  it('conformant servers with other choices where the spec is silent pass', () => {
    expect(matrix.tolerance.length).toBeGreaterThan(0);
    for (const variant of matrix.tolerance) {
      expect(variant.checks.length, variant.name).toBeGreaterThan(40);
      expect(
        variant.checks.filter((c) => c.state === 'failed'),
        variant.name,
      ).toEqual([]);
    }
  });

  it('the command exits 0 exactly when the matrix holds', () => {
    expect(matrix.ok).toBe(true);
    expect(exitCode).toBe(0);
  });
});
