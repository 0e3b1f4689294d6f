// One page per release: the conformance page of a reports folder lists the load runs of the same
// target with their verdicts, times and links (never another target's), whether the conformance run
// or the load run came last; a load run's summary names the conformance run beside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import {
  CONFORMANCE_FILES,
  conformanceBeside,
  loadRunsBeside,
  readConformanceResults,
  refreshConformancePage,
  sameTarget,
} from '../../src/report/load-runs.ts';
import { LOCK_FILE } from '../../src/report/run-lock.ts';
import { REPORT_FILES, writeReports } from '../../src/report/write-reports.ts';
import { fixtureResults, SECRET_LIST } from './fixture.ts';

const STAGING = { name: 'staging', apiBaseUrl: 'https://staging.example.test/api/' };
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'load-runs-'));
  dirs.push(dir);
  return dir;
}

function loadReport(script: string, over: Partial<LoadReport> = {}): LoadReport {
  return {
    tool: 'payments-crm-conformance k6 harness',
    script,
    target: STAGING,
    finishedAt: '2026-01-05T11:00:00.000Z',
    durationMs: 30_400,
    verdict: 'passed',
    passed: true,
    thresholds: [],
    checks: [],
    metrics: {},
    figures: [{ label: 'profile', value: 'smoke: 2 users' }],
    verdicts: [],
    notes: [],
    ...over,
  };
}

function put(dir: string, report: LoadReport, dashboard = true): void {
  writeFileSync(join(dir, `k6-${report.script}.json`), JSON.stringify(report));
  if (dashboard) writeFileSync(join(dir, `k6-${report.script}.html`), '<!doctype html>k6');
}

describe('load runs beside a conformance run', () => {
  it('names the same files as the conformance reports', () => {
    expect(CONFORMANCE_FILES).toEqual({ results: REPORT_FILES.results, html: REPORT_FILES.html });
  });

  it('is the same target: the same API base address (trailing slash aside), any port of the local server', () => {
    expect(sameTarget(STAGING, { name: 'staging', apiBaseUrl: 'https://staging.example.test/api' })).toBe(
      true,
    );
    expect(sameTarget(STAGING, { name: 'staging', apiBaseUrl: 'https://staging.example.test/v2/' })).toBe(
      false,
    );
    expect(sameTarget(STAGING, { name: 'production', apiBaseUrl: STAGING.apiBaseUrl })).toBe(false);
    expect(
      sameTarget(
        { name: 'local', apiBaseUrl: 'http://127.0.0.1:40001/api/' },
        { name: 'local', apiBaseUrl: 'http://127.0.0.1:40002/api/' },
      ),
    ).toBe(true);
  });

  it('lists the runs of the same target, the latest first, with their dashboard when k6 wrote one', () => {
    const dir = folder();
    put(dir, loadReport('release', { finishedAt: '2026-01-05T11:00:00.000Z' }));
    put(
      dir,
      loadReport('flag-cache', {
        finishedAt: '2026-01-05T12:00:00.000Z',
        verdict: 'inconclusive',
        verdictReason: 'no renewal seen',
        passed: false,
      }),
      false,
    );
    put(
      dir,
      loadReport('rate-limit', {
        target: { name: 'staging', apiBaseUrl: 'https://other.example.test/api/' },
      }),
    );
    writeFileSync(join(dir, 'k6-broken.json'), '{"script": ');
    const runs = loadRunsBeside(dir, STAGING);
    expect(runs.map((r) => [r.script, r.verdict, r.dashboard])).toEqual([
      ['flag-cache', 'inconclusive', undefined],
      ['release', 'passed', 'k6-release.html'],
    ]);
    expect(runs[1]).toMatchObject({ markdown: 'k6-release.md', durationMs: 30_400 });
    expect(loadRunsBeside(join(dir, 'absent'), STAGING)).toEqual([]);
  });

  it('index.html of a folder holding a release run shows its verdict, time and link; another target is not shown', async () => {
    const dir = folder();
    put(dir, loadReport('release', { verdict: 'failed', passed: false }));
    put(
      dir,
      loadReport('rate-limit', {
        target: { name: 'staging', apiBaseUrl: 'https://other.example.test/api/' },
      }),
    );
    await writeReports(dir, fixtureResults(), createSecretFilter(SECRET_LIST));
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<h2 id="load-runs">Load runs against this target');
    const rows = html.match(/<tr data-kind="load-run"[\s\S]*?<\/tr>/g) ?? [];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('data-script="release" data-verdict="failed"');
    expect(rows[0]).toContain('<span class="badge failed">failed</span>');
    expect(rows[0]).toContain('2026-01-05T11:00:00.000Z');
    expect(rows[0]).toContain('<a class="dashboard" href="k6-release.html">k6 dashboard report</a>');
    expect(rows[0]).toContain('<a href="k6-release.md">summary</a>');
    expect(html).not.toContain('k6-rate-limit');
  });

  it('a folder without load runs of its target has no load-run section', async () => {
    const dir = folder();
    await writeReports(dir, fixtureResults(), createSecretFilter(SECRET_LIST));
    expect(await readFile(join(dir, 'index.html'), 'utf8')).not.toContain('id="load-runs"');
  });

  it('a load run after the conformance run renders its page again, listing it; never while a conformance run holds the folder', async () => {
    const dir = folder();
    await writeReports(dir, fixtureResults(), createSecretFilter(SECRET_LIST));
    put(dir, loadReport('release'));
    const filter = createSecretFilter(SECRET_LIST);
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, startedAt: '' }));
    expect(await refreshConformancePage(dir, STAGING, filter)).toBe(false);
    rmSync(join(dir, LOCK_FILE));
    expect(
      await refreshConformancePage(
        dir,
        { name: 'staging', apiBaseUrl: 'https://other.example.test/' },
        filter,
      ),
    ).toBe(false);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).not.toContain('data-kind="load-run"');
    expect(await refreshConformancePage(dir, STAGING, filter)).toBe(true);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain(
      'data-script="release" data-verdict="passed"',
    );
  });

  it('a conformance run after the load runs is named in their summaries (its target only)', async () => {
    const dir = folder();
    const other = { name: 'staging', apiBaseUrl: 'https://other.example.test/api/' };
    put(dir, loadReport('release'));
    put(dir, loadReport('rate-limit', { target: other }));
    writeFileSync(join(dir, 'k6-release.md'), 'k6 wrote this');
    writeFileSync(join(dir, 'k6-rate-limit.md'), 'k6 wrote this');
    await writeReports(dir, fixtureResults(), createSecretFilter(SECRET_LIST));
    const release = await readFile(join(dir, 'k6-release.md'), 'utf8');
    expect(release).toMatch(/^# k6 release: passed/);
    expect(release).toContain(
      'Beside the conformance run of 2026-01-05T10:00:00.000Z against the same target',
    );
    const json = JSON.parse(await readFile(join(dir, 'k6-release.json'), 'utf8')) as LoadReport;
    expect(json.conformance).toMatchObject({ startedAt: '2026-01-05T10:00:00.000Z', exitCode: 1 });
    expect(await readFile(join(dir, 'k6-rate-limit.md'), 'utf8')).toBe('k6 wrote this');
  });

  it("a load run's summary names the conformance run beside it, and links its dashboard report", async () => {
    const dir = folder();
    await writeReports(dir, fixtureResults(), createSecretFilter(SECRET_LIST));
    const results = readConformanceResults(dir);
    const beside = conformanceBeside(results, STAGING);
    expect(beside).toMatchObject({
      startedAt: '2026-01-05T10:00:00.000Z',
      exitCode: 1,
      file: 'index.html',
      verdict: expect.stringMatching(/^2 checks failed/),
    });
    expect(conformanceBeside(results, { name: 'staging', apiBaseUrl: 'https://other.example.test/' })).toBe(
      undefined,
    );
    const markdown = renderMarkdown(
      loadReport('release', {
        dashboard: { file: 'k6-release.html' },
        ...(beside ? { conformance: beside } : {}),
      }),
    );
    expect(markdown).toContain("Charts over time: [k6's dashboard report](k6-release.html)");
    expect(markdown).toMatch(
      /Beside the conformance run of 2026-01-05T10:00:00\.000Z against the same target: 2 checks failed.* \(exit code 1, \[index\.html\]\(index\.html\)\)\./,
    );
    expect(renderMarkdown(loadReport('release', { dashboard: { missing: 'k6 wrote none' } }))).toContain(
      'No dashboard report: k6 wrote none.',
    );
    expect(renderMarkdown(loadReport('release'))).not.toMatch(/dashboard|Beside the conformance/);
  });
});
