// Selecting and re-running checks by id, end to end against the embedded reference server (issue 33:
// `--rule PAG-BEYOND-STATUS` answered "unknown rule"; there was no --check, no --last-failed, no
// --version; a --rule run overwrote the full run's reports).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { comparisonPointPath } from '../../src/report/comparison-point.ts';
import type { ConformanceResults } from '../../src/report/types.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { FIXTURE_CHECKS, fixtureResults } from '../report/fixture.ts';
import { runTs } from '../support/run-node.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'selection-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const env = () => ({
  ...process.env,
  NO_COLOR: '1',
  CONFORMANCE_TARGET: 'local',
  CONFORMANCE_REPORTS_DIR: dir,
});
const conformance = (args: string[]) => runTs('src/cli/conformance.ts', args, { env: env() });
const filteredResults = () =>
  JSON.parse(readFileSync(join(dir, 'filtered', 'results.json'), 'utf8')) as ConformanceResults;
const FULL_RUN = '{"a full run": "left alone"}\n';

// Each CLI run is seconds alone, minutes on a machine loaded by other test files.
describe('selecting checks by id', { timeout: 600_000 }, () => {
  it('--rule given a check id runs that check with a hint; its reports go beside the full run', async () => {
    await writeFile(join(dir, 'results.json'), FULL_RUN);
    const run = await conformance(['--rule', 'pag-beyond-status']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'conformance: PAG-BEYOND-STATUS is a check, not a rule: running it (next time: --check PAG-BEYOND-STATUS)',
    );
    const results = filteredResults();
    expect(results.checks.map((c) => [c.id, c.status])).toEqual([['PAG-BEYOND-STATUS', 'passed']]);
    expect(results.scope).toMatchObject({ filtered: true, selection: '--check PAG-BEYOND-STATUS' });
    // The full run's reports are not touched, and no filtered run becomes a comparison point.
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe(FULL_RUN);
    expect(existsSync(join(dir, 'filtered', 'history'))).toBe(false);
  });

  it('--check takes several ids and globs; an id that names nothing is a run problem', async () => {
    const run = await conformance(['--check', 'PAG-BEYOND-S*', '--check', 'err-path']);
    expect(run.code, run.stderr).toBe(0);
    expect(filteredResults().checks.map((c) => c.id)).toEqual(['PAG-BEYOND-STATUS', 'ERR-PATH']);
    const none = await conformance(['--check', 'NO-SUCH-CHECK']);
    expect(none.code).toBe(2);
    expect(filteredResults().problems.join('\n')).toContain('no check matches --check NO-SUCH-CHECK');
  });

  it('--last-failed runs again exactly the failed checks of the last complete run of the target', async () => {
    const ids = ['ERR-PATH', 'PAG-BEYOND-STATUS', 'INV-ERROR-PATH'];
    const base = fixtureResults({ areas: [...AREAS] });
    const last: ConformanceResults = {
      ...base,
      target: {
        name: 'local',
        apiBaseUrl: 'http://127.0.0.1:1/api/',
        petstoreBaseUrl: 'http://127.0.0.1:1/pets/v1',
      },
      exitCode: 1,
      checks: [
        ...ids.map((id) => ({
          ...(FIXTURE_CHECKS.find((c) => c.status === 'failed') as (typeof FIXTURE_CHECKS)[number]),
          id,
        })),
        {
          ...(FIXTURE_CHECKS.find((c) => c.status === 'passed') as (typeof FIXTURE_CHECKS)[number]),
          id: 'ERR-MESSAGE',
        },
      ],
    };
    const point = comparisonPointPath(dir, last.target);
    await mkdir(dirname(point), { recursive: true });
    await writeFile(point, JSON.stringify(last));
    const run = await conformance(['--last-failed']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('running again the 3 failed checks of the last complete run');
    expect(
      filteredResults()
        .checks.map((c) => c.id)
        .sort(),
    ).toEqual([...ids].sort());
    // Compared with the full run's comparison point (history/ beside the full reports): fixed now.
    const history = filteredResults().history;
    expect(history?.previousStartedAt).toBe(last.startedAt);
    const fixed = history?.changes.filter((c) => c.from === 'failed' && c.to === 'passed').map((c) => c.id);
    expect(fixed?.sort()).toEqual([...ids].sort());
  });

  it('--last-failed with no complete run, --version, an unknown rule or check: one line each', async () => {
    const none = await conformance(['--last-failed']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^conformance: --last-failed: no complete run of the local target in .* run npm run conformance first\n$/,
    );
    const version = await conformance(['--version']);
    expect([version.code, version.stdout]).toEqual([0, 'payments-crm-conformance 0.1.0\n']);
    const unknown = await conformance(['--rule', 'PAG-99']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('conformance: unknown rule or check "PAG-99"; see --list-rules\n');
    const bad = await conformance(['--check', 'a/b']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^conformance: --check "a\/b" is no check id/);
  });
});
