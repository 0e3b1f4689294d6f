// A run k6 never started (k6 refusing its arguments: `--profiel smoke` is exit 255, `--duration 5s`
// 104) borrows nothing and removes nothing of the previous run. Before: the launcher read the
// previous run's k6-release.json as this run's, deleted its dashboard before k6 started and said
// the run was "listed in the conformance report", the old "passed" standing. Now such a run, and
// one the launcher refuses before k6, writes its own "did not run" entry with the reason, and the
// last run's reports move whole to k6-<script>.previous.* (issue 33).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { fakeK6, runLoadCli } from '../load/cli-run.ts';
import { fixtureResults } from '../report/fixture.ts';
import { loadReportFixture } from '../support/load-report.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The last run's report: a release that passed. */
const previous = `${JSON.stringify(loadReportFixture())}\n`;

describe('a load run k6 refuses', () => {
  it('writes a "did not run" entry, keeps the previous run reports and dashboard, and claims no verdict', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'refused-run-'));
    const k6 = fakeK6();
    dirs.push(reports, k6.dir);
    writeFileSync(join(reports, 'k6-release.json'), previous);
    writeFileSync(join(reports, 'k6-release.html'), '<html>previous dashboard</html>');
    const run = await runLoadCli(['release', '--profiel', 'smoke'], {
      K6_REPORT_DIR: reports,
      PATH: [k6.dir, process.env.PATH].join(':'),
      FAKE_K6_EXIT: '255',
    });
    expect(existsSync(k6.argvFile), 'the stand-in k6 ran').toBe(true);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.code).toBe(255);
    expect(readFileSync(join(reports, 'k6-release.previous.json'), 'utf8')).toBe(previous);
    expect(readFileSync(join(reports, 'k6-release.html'), 'utf8')).toContain('previous dashboard');
    const entry = JSON.parse(readFileSync(join(reports, 'k6-release.json'), 'utf8'));
    expect(entry).toMatchObject({
      verdict: 'did not run',
      passed: false,
      dashboard: { missing: 'the run did not start' },
    });
    expect(entry.verdictReason).toMatch(/^k6 exited with code 255, before the run started/);
    expect(entry.notes.join('\n')).toContain(
      'the run before this one (passed, finished 2026-01-01T00:00:00.000Z) is not this run',
    );
    expect(readFileSync(join(reports, 'k6-release.md'), 'utf8')).toMatch(/DID NOT RUN/);
    expect(readFileSync(join(reports, 'k6-release.junit.xml'), 'utf8')).toContain(
      'did not run: k6 exited with code 255',
    );
    expect(run.stderr).not.toMatch(/passed/);
    // A second refusal replaces its own entry, never the run set aside.
    await runLoadCli(['release', '--profiel', 'smoke'], {
      K6_REPORT_DIR: reports,
      PATH: [k6.dir, process.env.PATH].join(':'),
      FAKE_K6_EXIT: '255',
    });
    expect(readFileSync(join(reports, 'k6-release.previous.json'), 'utf8')).toBe(previous);
    expect(JSON.parse(readFileSync(join(reports, 'k6-release.json'), 'utf8')).notes.join('\n')).toContain(
      '(passed, finished 2026-01-01',
    );
  }, 240_000);

  it('a run the launcher refuses before k6 is listed as "did not run" on the release page, not as the old "passed"', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'refused-run-'));
    dirs.push(reports);
    const results = fixtureResults({ areas: [...AREAS] });
    const local = { ...results, target: { ...results.target, name: 'local' as const } };
    writeFileSync(join(reports, 'k6-release.json'), previous);
    writeFileSync(join(reports, 'k6-release.html'), '<html>previous dashboard</html>');
    await writeReports(reports, local, createSecretFilter([]));
    expect(readFileSync(join(reports, 'index.html'), 'utf8')).toMatch(/data-verdict="passed"/);
    const run = await runLoadCli(['release', '--env', 'RELEASE_VUS=abc'], {
      CONFORMANCE_REPORTS_DIR: reports,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('load: listed as "did not run" in the conformance report');
    const page = readFileSync(join(reports, 'index.html'), 'utf8');
    expect(page).toMatch(/data-script="release" data-verdict="did not run"/);
    expect(page).toMatch(/refusing to run release: .*RELEASE_VUS/);
    expect(page).not.toMatch(/data-verdict="passed"/);
    // The last run's dashboard stays, but is not linked as this run's.
    expect(existsSync(join(reports, 'k6-release.html'))).toBe(true);
    expect(page).not.toContain('href="k6-release.html"');
  }, 120_000);
});
