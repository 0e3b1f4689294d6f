// What the reports folder holds is untrusted: a restored history cache or a downloaded artifact may
// carry a planted results.json or k6-<script>.json. Each bad file here is set aside with a reason or
// rendered escaped; no <img, <meta, <details> or raw HTML from read-back data reaches a report, and
// no wrongly typed field ends a run.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import {
  loadRunsBeside,
  readConformanceResults,
  refreshConformancePage,
} from '../../src/report/load-runs.ts';
import { readBackLoadReport, readBackResults } from '../../src/report/read-back.ts';
import { REPORT_FILES, writeReports } from '../../src/report/write-reports.ts';
import { loadReportFixture } from '../support/load-report.ts';
import { fixtureResults } from './fixture.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'planted-'));
  dirs.push(dir);
  return dir;
}

// The planted markup as markup (escaped it reads &lt;img ...; the page's own <meta charset> is ours).
const RAW = ['<img src=https://tracker', '<meta http-equiv="refresh"', '<details><summary>x', '<summary>x'];
const HOSTILE =
  '<img src=https://tracker.example/p.gif><details><summary>x</summary><meta http-equiv="refresh" content="0;url=https://evil.example">';

/** A load report as the k6 summary writes it (the fields the pages render). */
function loadReport(target: { name: string; apiBaseUrl: string }, over: Record<string, unknown> = {}) {
  return loadReportFixture({
    tool: 'payments-crm-conformance',
    target,
    finishedAt: '2026-01-05T10:01:00.000Z',
    ...over,
  });
}

describe('a planted previous results.json', () => {
  it('with markup in its fields: the history renders it escaped, or sets it aside', async () => {
    const current = fixtureResults();
    const dir = await folder();
    const planted = { ...current, startedAt: HOSTILE };
    await writeFile(join(dir, REPORT_FILES.previous), JSON.stringify(planted));
    const notes: string[] = [];
    await writeReports(dir, current, createSecretFilter([]), (l) => notes.push(l));
    const summary = await readFile(join(dir, REPORT_FILES.summary), 'utf8');
    const html = await readFile(join(dir, REPORT_FILES.html), 'utf8');
    for (const raw of RAW) {
      expect(summary).not.toContain(raw);
      expect(html).not.toContain(raw);
    }
    expect(notes.join('\n')).toMatch(
      /does not match its schema \(\/startedAt must match format "date-time"\)/,
    );
  });

  it.each([
    [
      'a title that is not a string',
      (r: ReturnType<typeof fixtureResults>) => ({
        ...r,
        checks: r.checks.map((c) => ({ ...c, title: 42 })),
      }),
    ],
    ['an exit code of 7', (r: ReturnType<typeof fixtureResults>) => ({ ...r, exitCode: 7 })],
  ])('with %s: set aside with one line, and the run still writes its reports', async (_what, plant) => {
    const current = fixtureResults();
    const dir = await folder();
    await writeFile(join(dir, REPORT_FILES.previous), JSON.stringify(plant(current)));
    const notes: string[] = [];
    const written = await writeReports(dir, current, createSecretFilter([]), (l) => notes.push(l));
    expect(written.history).toBeUndefined();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('does not match its schema');
  });
});

describe('a planted results.json re-rendered after a load run', () => {
  it('is not rendered unless it is a results file by its schema', async () => {
    const dir = await folder();
    const results = fixtureResults();
    const planted = { ...results, checks: [{ ...results.checks[0], title: { html: HOSTILE } }] };
    await writeFile(join(dir, 'results.json'), JSON.stringify(planted));
    expect(readConformanceResults(dir)).toBeUndefined();
    expect(await refreshConformancePage(dir, results.target, createSecretFilter([]))).toBe(false);
    await writeFile(join(dir, 'results.json'), JSON.stringify(results));
    expect(readConformanceResults(dir)).toBeDefined();
  });
});

describe('a planted k6 report', () => {
  const target = { name: 'staging', apiBaseUrl: 'https://staging.example.test/api/' };

  it.each([
    ['a verdictReason of 42', { verdictReason: 42 }],
    ['a verdict it cannot have', { verdict: 'conformant' }],
    ['a 300,000-point limiter timeline', { analysis: { timeline: Array(300_000).fill({ t: 0 }) } }],
    ['notes that are not strings', { notes: [{ html: HOSTILE }] }],
    ['a script name with markup', { script: `release${HOSTILE}` }],
  ])('with %s: set aside with a reason, never listed', async (_what, over) => {
    const dir = await folder();
    await writeFile(join(dir, 'k6-release.json'), JSON.stringify(loadReport(target, over)));
    const notes: string[] = [];
    expect(loadRunsBeside(dir, target, (l) => notes.push(l))).toEqual([]);
    expect(notes[0]).toMatch(/k6-release\.json does not match its schema .*: set aside, not shown/);
  });

  it('a valid one is listed, and its text reaches index.html escaped', async () => {
    const dir = await folder();
    const report = loadReport(target, {
      verdictReason: HOSTILE,
      figures: [{ label: HOSTILE, value: HOSTILE }],
    });
    expect(readBackLoadReport(report).ok).toBe(true);
    await writeFile(join(dir, 'k6-release.json'), JSON.stringify(report));
    const results = { ...fixtureResults(), target: { ...fixtureResults().target, ...target } };
    await writeFile(join(dir, 'results.json'), JSON.stringify(results));
    expect(readBackResults(JSON.parse(JSON.stringify(results))).ok).toBe(true);
    expect(await refreshConformancePage(dir, results.target, createSecretFilter([]))).toBe(true);
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('k6-release');
    for (const raw of RAW) expect(html).not.toContain(raw);
    expect(html).toContain('&lt;img src=https://tracker');
  });
});
