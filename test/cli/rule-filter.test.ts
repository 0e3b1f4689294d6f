// --rule and --area of the conformance CLI select by the checks' tags (src/rules/tags.ts), end to
// end against the embedded reference server. Test names no longer carry rule ids: a selection by
// name pattern would select nothing here.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConformanceResults } from '../../src/report/types.ts';
import { runTs } from '../support/run-node.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rule-filter-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function conformance(args: string[]) {
  const env = { ...process.env, NO_COLOR: '1', CONFORMANCE_TARGET: 'local', CONFORMANCE_REPORTS_DIR: dir };
  const run = await runTs('src/cli/conformance.ts', args, { env });
  // A selection's reports go beside the full run's, never over them.
  const results = JSON.parse(
    await readFile(join(dir, 'filtered', 'results.json'), 'utf8'),
  ) as ConformanceResults;
  return { run, results };
}

// Each test is one CLI run of a few checks: seconds alone, over 2 minutes at a load of 15-30 on 2 cores.
describe('the conformance CLI selects checks by their tags', { timeout: 600_000 }, () => {
  it('--rule: the checks of those rules, in every area', async () => {
    const { run, results } = await conformance(['--rule', 'PAG-12', '--rule', 'err-01']);
    expect(run.code, run.stderr).toBe(0);
    expect(results.checks.map((c) => [c.id, c.area, c.status]).sort()).toEqual([
      ['ERR-MESSAGE', 'errors', 'passed'],
      // A repeated page answered, or refused with an error body whose message explains it.
      ['ERR-PAGE-REPEATED', 'errors', 'passed'],
      // The invariant of ERR-01, judged over every answer of the run (src/checks/invariants.ts).
      ['INV-ERROR-MESSAGE', 'errors', 'passed'],
      // Never a 5xx (GNR-01, which ERR-PAGE-REPEATED judges too), over every answer of the run.
      ['INV-NO-5XX', 'generated', 'passed'],
      ['PAG-PAGE-SIZE', 'customers-pagination', 'passed'],
      // The relation that protects PAG-12 (the same page size through each credential): with only
      // these checks run there is no pair to compare, so it is inconclusive, never passed.
      ['REL-PAGE-SIZE-EACH-CREDENTIAL', 'customers-pagination', 'skipped'],
    ]);
    // The rules the selected checks judge: ERR-PAGE-REPEATED judges GNR-01 beside ERR-01.
    expect(results.rules.map((r) => r.id).sort()).toEqual(['ERR-01', 'GNR-01', 'PAG-12']);
  });

  it('--area with --rule: the checks of those rules in that area only', async () => {
    const { run, results } = await conformance(['--area', 'errors', '--rule', 'ERR-01', '--rule', 'PAG-12']);
    expect(run.code, run.stderr).toBe(0);
    expect(results.checks.map((c) => c.id)).toEqual([
      'ERR-MESSAGE',
      'ERR-PAGE-REPEATED',
      'INV-ERROR-MESSAGE',
      'INV-NO-5XX',
    ]);
  });
});
