// The one outcome function: every kind a check's test can end in, and the counts every console
// line prints. Tests stand in for vitest's TestCase with the few methods the function reads.

import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import type { CheckMeta } from '../../src/checks/meta.ts';
import { addOutcome, countsText, emptyCounts, NOT_RUN_REASON, outcomeOf } from '../../src/report/outcome.ts';

interface Fake {
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  meta?: Partial<CheckMeta>;
  note?: string;
  mode?: 'run' | 'skip' | 'only' | 'todo';
  project?: string;
  errors?: { message: string }[];
}

function fake(f: Fake): TestCase {
  return {
    meta: () => (f.meta ? { conformance: f.meta } : {}),
    result: () => ({ state: f.state, note: f.note, errors: f.errors }),
    options: { mode: f.mode ?? 'run' },
    project: { name: f.project ?? 'conformance' },
  } as unknown as TestCase;
}

describe('outcomeOf', () => {
  it('a passing check passed; one with a soft failure failed, non-strict', () => {
    expect(outcomeOf(fake({ state: 'passed', meta: {} }))).toEqual({ kind: 'passed' });
    expect(outcomeOf(fake({ state: 'passed', meta: { softFailure: 'no Deprecation header' } }))).toEqual({
      kind: 'failed',
      nonStrict: true,
      reason: 'no Deprecation header',
    });
  });

  it('a failing test failed and fails the run, with its messages as the reason', () => {
    const got = outcomeOf(
      fake({ state: 'failed', meta: {}, errors: [{ message: 'expected 2xx, got 404' }] }),
    );
    expect(got).toEqual({ kind: 'failed', nonStrict: false, reason: 'expected 2xx, got 404' });
  });

  it('a check that skipped itself is skipped with its reason', () => {
    expect(outcomeOf(fake({ state: 'skipped', meta: { skipReason: 'set EXPIRED_ACCESS_TOKEN' } }))).toEqual({
      kind: 'skipped',
      reason: 'set EXPIRED_ACCESS_TOKEN',
    });
    expect(outcomeOf(fake({ state: 'skipped', note: 'no control API' }))).toEqual({
      kind: 'skipped',
      reason: 'no control API',
    });
  });

  it('a check a filter left out is no part of the run; one the run never reached is not run', () => {
    expect(outcomeOf(fake({ state: 'skipped', mode: 'skip' }))).toBeUndefined();
    expect(outcomeOf(fake({ state: 'pending' }))).toEqual({ kind: 'not-run', reason: NOT_RUN_REASON });
    expect(outcomeOf(fake({ state: 'skipped', mode: 'run' }))).toEqual({
      kind: 'not-run',
      reason: NOT_RUN_REASON,
    });
  });

  it('a self-test skipped on purpose counts as skipped', () => {
    expect(outcomeOf(fake({ state: 'skipped', mode: 'skip', project: 'self' }))?.kind).toBe('skipped');
  });
});

describe('counts', () => {
  it('counts a SHOULD failure as failed and says how many of the failures it is', () => {
    const counts = emptyCounts();
    for (const f of [
      { kind: 'passed' },
      { kind: 'passed' },
      { kind: 'failed', nonStrict: false, reason: 'x' },
      { kind: 'failed', nonStrict: true, reason: 'y' },
      { kind: 'skipped', reason: 'z' },
      { kind: 'not-run', reason: NOT_RUN_REASON },
      undefined,
    ] as const) {
      addOutcome(counts, f);
    }
    expect(counts).toEqual({ passed: 2, failed: 1, nonStrict: 1, skipped: 2 });
    expect(countsText(counts)).toBe(
      '2 passed, 2 failed (1 of them SHOULD or advice, not failing the run), 2 skipped',
    );
    expect(countsText(emptyCounts())).toBe('0 passed, 0 failed, 0 skipped');
  });
});
