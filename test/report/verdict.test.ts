// The verdict in one sentence: failures first, then how much of the spec the run checked; never
// "conformant" when rules went unchecked, never "passed" when the run was interrupted.
import { describe, expect, it } from 'vitest';
import { buildResults } from '../../src/report/results.ts';
import type { ConformanceResults } from '../../src/report/types.ts';
import { uncheckedLines, verdictOf } from '../../src/report/verdict.ts';
import { FIXTURE_CHECKS, fixtureInput, fixtureResults } from './fixture.ts';

const passing = buildResults(fixtureInput({ checks: FIXTURE_CHECKS.filter((c) => c.status !== 'failed') }));
const complete = (r: ConformanceResults): ConformanceResults => ({
  ...r,
  coverage: { rules: r.coverage.checked, checked: r.coverage.checked, unchecked: [] },
});

describe('verdictOf', () => {
  it('names failures, SHOULD failures apart, and the coverage', () => {
    expect(verdictOf(fixtureResults())).toBe(
      '2 checks failed, 1 advice not followed (not the spec); 8 of 28 rules checked; 20 not checked',
    );
  });

  it('"conformant" only when every rule of the run was checked', () => {
    expect(verdictOf(passing)).toMatch(
      /^Every check that ran passed; \d+ of 28 rules checked; \d+ not checked$/,
    );
    expect(verdictOf(complete(passing))).toMatch(
      /^Conformant: every check passed; (\d+) of \1 rules checked$/,
    );
  });

  it('an interrupted run never reads as passed; a run problem says so', () => {
    expect(verdictOf({ ...passing, exitCode: 130 })).toMatch(
      /^Interrupted \(SIGINT\): \d+ of \d+ checks finished; /,
    );
    expect(verdictOf({ ...fixtureResults(), exitCode: 143 })).toMatch(
      /^Interrupted \(SIGTERM\): \d+ of \d+ checks finished, 3 failed; /,
    );
    expect(verdictOf({ ...passing, exitCode: 2 })).toMatch(
      /^Run problem: the run could not check everything; /,
    );
  });

  it('each unchecked rule says what would check it', () => {
    const lines = uncheckedLines(fixtureResults());
    expect(lines.length).toBe(20);
    expect(lines.find((l) => l.startsWith('REN-04 (MUST): '))).toContain('test/client/token-manager.test.ts');
    expect(lines.find((l) => l.startsWith('FLG-02 '))).toContain('control API');
    expect(lines.some((l) => l.endsWith(': no check covers it'))).toBe(true);
  });
});
