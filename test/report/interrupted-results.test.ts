// An interrupted run cannot say "no check covers" a rule: its suites may not all have loaded. Such
// rules are skipped, "not run (interrupted)", where a finished run calls them uncovered.
import { describe, expect, it } from 'vitest';
import { NOT_LOADED_NOTE } from '../../src/report/results.ts';
import { FIXTURE_UNCOVERED, fixtureResults } from './fixture.ts';

describe('rules of an interrupted run', () => {
  it('a finished run names the rules no check covers', () => {
    const results = fixtureResults();
    expect(FIXTURE_UNCOVERED.length).toBeGreaterThan(0);
    expect(results.rules.filter((r) => r.status === 'uncovered').map((r) => r.id)).toEqual(FIXTURE_UNCOVERED);
  });

  it('an interrupted one says they did not run, and counts none as uncovered', () => {
    const results = fixtureResults({ interrupted: true });
    expect(results.totals.rules.uncovered).toBe(0);
    const notLoaded = results.rules.filter((r) => r.note === NOT_LOADED_NOTE);
    expect(notLoaded.map((r) => r.id)).toEqual(FIXTURE_UNCOVERED);
    expect(notLoaded.every((r) => r.status === 'skipped')).toBe(true);
    expect(results.coverage.unchecked.filter((u) => u.why === NOT_LOADED_NOTE)).toHaveLength(
      notLoaded.length,
    );
  });
});
