// The fault matrix as a self-test: the suites pass against the clean reference server and against
// conformant servers that choose differently where the spec is silent, every named fault is
// caught by a check of the very rule it breaks, and every check fails under some fault. Runs `npm run faults -- --json` in its own process
// (vitest cannot run inside a vitest worker).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkRows,
  type FaultRow,
  type Matrix,
  mergeSlices,
  renderMatrix,
} from '../../src/runner/fault-matrix.ts';
import { type NodeRun, runTs } from '../support/run-node.ts';

/** Parts of the matrix run side by side, each in its own process: each part is a few minutes' work. */
const SLICES = 4;

function runSlice(index: number): Promise<NodeRun> {
  // The matrix is always local; a developer's target settings must not reach it.
  return runTs('src/cli/faults.ts', ['--json', '--slice', `${index}/${SLICES}`], {
    env: { ...process.env, CONFORMANCE_TARGET: 'local', CONFORMANCE_STRICT: '0' },
  });
}

function matrixOf(run: NodeRun, index: number): Matrix {
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as Matrix;
  } catch {
    throw new Error(
      `slice ${index}/${SLICES} printed no matrix (exit ${run.code}): ${run.stderr.slice(-500)}`,
    );
  }
}

describe('fault matrix', () => {
  let matrix: Matrix;
  let exitCodes: (number | null)[];

  beforeAll(async () => {
    const indexes = Array.from({ length: SLICES }, (_, i) => i + 1);
    const runs = await Promise.all(indexes.map(runSlice));
    exitCodes = runs.map((r) => r.code);
    matrix = mergeSlices(runs.map((r, i) => matrixOf(r, i + 1)));
    // Only a hang misses this: the whole matrix takes minutes even at a load of 30 on 2 cores.
  }, 3_600_000);

  it('every check passes against the clean reference server', () => {
    expect(matrix.clean.checks.length).toBeGreaterThan(40);
    expect(matrix.clean.checks.filter((c) => c.state === 'failed')).toEqual([]);
  });

  it('every fault is caught by a check of the rule it breaks', () => {
    const uncaught = matrix.faults.filter((row) => row.caughtBy.length === 0);
    expect(uncaught.map((row) => `${row.fault} (${row.rule})`)).toEqual([]);
    expect(matrix.faults.length).toBeGreaterThanOrEqual(30);
  });

  it('every check fails under at least one fault', () => {
    expect(matrix.checks.map((c) => c.id).sort()).toEqual(matrix.clean.checks.map((c) => c.id).sort());
    expect(matrix.checks.filter((c) => c.failedBy.length === 0).map((c) => c.id)).toEqual([]);
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

  it('each slice exits 0 exactly when its part holds, and the merged matrix holds', () => {
    expect(matrix.ok).toBe(true);
    expect(exitCodes).toEqual(Array.from({ length: SLICES }, () => 0));
  });
});

describe('the matrix per check', () => {
  const clean = {
    name: 'clean',
    checks: [
      { id: 'A-1', rules: ['A-01'], state: 'passed' as const },
      { id: 'B-1', rules: ['B-01'], state: 'passed' as const },
    ],
  };
  const rows: FaultRow[] = [{ fault: 'a-broken', rule: 'A-01', caughtBy: ['A-1'], otherFailures: [] }];

  it('a check no fault fails is listed, and the closing line counts it', () => {
    const checks = checkRows(clean, rows);
    expect(checks).toEqual([
      { id: 'A-1', rules: ['A-01'], failedBy: ['a-broken'], alsoFailedBy: [] },
      { id: 'B-1', rules: ['B-01'], failedBy: [], alsoFailedBy: [] },
    ]);
    const text = renderMatrix({ clean, faults: rows, checks, tolerance: [], ok: false });
    expect(text).toMatch(/^B-1 +NO FAULT OF ITS RULE FAILS IT$/m);
    expect(text).toContain('checks no fault of their rule fails (1): B-1');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '1 of 1 faults caught by a check of their rule; 1 of 2 checks without a fault of their rule that fails them: NOT OK',
    );
  });

  it('with --fault (a subset), checks are not asked to fail, and the closing line says so', () => {
    const checks = checkRows(clean, rows);
    const text = renderMatrix({ clean, faults: rows, checks, tolerance: [], ok: true, subset: true });
    expect(text).not.toContain('NO FAULT OF ITS RULE FAILS IT');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '1 of 1 faults caught by a check of their rule; checks are not asked to fail (only part of the faults ran: --fault or --slice): OK',
    );
  });

  // A check failed only by another rule's fault (its setup broke) has shown nothing of its own.
  it("another rule's fault is listed apart and credits nothing", () => {
    const checks = checkRows(clean, [
      { fault: 'a-broken', rule: 'A-01', caughtBy: [], otherFailures: ['B-1'] },
    ]);
    expect(checks.find((c) => c.id === 'B-1')).toMatchObject({ failedBy: [], alsoFailedBy: ['a-broken'] });
    const text = renderMatrix({ clean, faults: [], checks, tolerance: [], ok: false });
    expect(text).toMatch(/^B-1 +NO FAULT OF ITS RULE FAILS IT; other rules' faults, not credited: 1$/m);
  });
});

describe('slices of the matrix', () => {
  const clean = { name: 'clean', checks: [{ id: 'A-1', rules: ['A-01'], state: 'passed' as const }] };
  const part = (faults: FaultRow[]): Matrix => ({
    clean,
    faults,
    checks: checkRows(clean, faults),
    tolerance: [],
    ok: true,
    subset: true,
  });

  it('merged, a check is asked to fail under a fault of its rule in any slice', () => {
    const merged = mergeSlices([
      part([{ fault: 'b-broken', rule: 'B-01', caughtBy: ['B-1'], otherFailures: ['A-1'] }]),
      part([{ fault: 'a-broken', rule: 'A-01', caughtBy: ['A-1'], otherFailures: [] }]),
    ]);
    expect(merged.subset).toBeUndefined();
    expect(merged.checks).toEqual([
      { id: 'A-1', rules: ['A-01'], failedBy: ['a-broken'], alsoFailedBy: ['b-broken'] },
    ]);
    expect(merged.ok).toBe(true);
    const none = mergeSlices([
      part([{ fault: 'b-broken', rule: 'B-01', caughtBy: ['B-1'], otherFailures: ['A-1'] }]),
    ]);
    expect(none.ok).toBe(false);
  });
});
