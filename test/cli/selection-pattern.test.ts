// How --check ids and globs become vitest's test-name pattern (src/cli/selection.ts): a test's full
// name is its suite names and its own joined by spaces, its own starting with the check id.
import { describe, expect, it } from 'vitest';
import {
  type CheckSelection,
  checkNamePattern,
  checkPatternProblem,
  selectionText,
} from '../../src/cli/selection.ts';
import { matchesCheck } from '../../src/report/check-globs.ts';

const select = (checks: string[], lastFailed?: string[]): CheckSelection => ({
  rules: [],
  checks,
  invariants: [],
  ...(lastFailed ? { lastFailed } : {}),
});

describe('--check ids and globs', () => {
  it('match the id word of a full test name, exactly or by * and ?', async () => {
    const pattern = await checkNamePattern(select(['PAG-BEYOND-S*', 'ERR-PATH']));
    expect(
      pattern?.test('customers-pagination PAG-BEYOND-STATUS a page beyond total_pages answers 422'),
    ).toBe(true);
    expect(pattern?.test('errors ERR-PATH path names the route')).toBe(true);
    // Neither a longer id nor the id inside another word.
    expect(pattern?.test('errors ERR-PATH-EVERY path on every error')).toBe(false);
    expect(pattern?.test('customers-pagination PAG-BEYOND-MESSAGE states the maximum')).toBe(false);
    expect(matchesCheck('pag-?eyond-*', 'PAG-BEYOND-FAR')).toBe(true);
    expect(matchesCheck('PAG.BEYOND', 'PAG-BEYOND')).toBe(false);
  });

  it('an invariant is no test: alone it runs every check, beside checks it selects only them', async () => {
    const alone = select(['INV-ERROR-PATH']);
    expect(await checkNamePattern(alone)).toBeUndefined();
    expect(alone.invariants).toEqual(['INV-ERROR-PATH']);
    const beside = select(['ERR-PATH'], ['INV-ERROR-PATH']);
    expect((await checkNamePattern(beside))?.test('errors ERR-PATH path')).toBe(true);
    expect(beside.invariants).toEqual(['INV-ERROR-PATH']);
  });

  it('refuses what cannot be an id, and names the selection in the words of the command', () => {
    expect(checkPatternProblem('PAG-*')).toBeUndefined();
    expect(checkPatternProblem('a/b')).toMatch(/is no check id/);
    expect(checkPatternProblem('*')).toMatch(/is no check id/);
    expect(selectionText({ rules: ['PAG-12'], checks: ['ERR-*'], invariants: [] })).toBe(
      '--rule PAG-12 --check ERR-*',
    );
    expect(selectionText(select([]))).toBeUndefined();
  });
});
