// The comparison point (src/report/comparison-point.ts): the last complete, unfiltered run against
// the same target. Runs in the order a week of nights brings them, each through the writer every run
// uses (writeReports, once the run has its verdict). Issue 33: a wrong-secret, interrupted
// or --rule run became the point, so the next full run listed ~140 lines "absent -> passed"; two bad
// runs in a row lost the good point; local runs never compared (the port changes); an interrupted
// page called itself a "subset run".
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import {
  comparisonPointPath,
  keepComparisonPoint,
  notAComparisonPoint,
  targetKey,
} from '../../src/report/comparison-point.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderSummary } from '../../src/report/summary-md.ts';
import type { ConformanceResults } from '../../src/report/types.ts';
import { REPORT_FILES, writeReports } from '../../src/report/write-reports.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { FIXTURE_CHECKS, fixtureResults } from './fixture.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'comparison-point-'));
  dirs.push(dir);
  return dir;
}

/** One run through the writer, as the reporter drives it. */
async function night(dir: string, results: ConformanceResults, baseline?: string) {
  const notes: string[] = [];
  const written = await writeReports(
    dir,
    results,
    createSecretFilter([]),
    (line) => notes.push(line),
    baseline ? { baseline } : {},
  );
  return { written, notes };
}

const full = () => fixtureResults({ areas: [...AREAS] });
/** A wrong secret: the run stops on a run problem with almost nothing checked (exit 2). */
const wrongSecret = () =>
  fixtureResults({ areas: [...AREAS], checks: FIXTURE_CHECKS.slice(0, 1), problems: ['token refused'] });
const interrupted = (): ConformanceResults => ({
  ...fixtureResults({ areas: ['auth-token'], checks: FIXTURE_CHECKS.slice(0, 1), interrupted: true }),
  exitCode: 130,
});
const filtered = () =>
  fixtureResults({ areas: [...AREAS], checks: FIXTURE_CHECKS.slice(0, 1), selection: '--rule TOK-03' });

describe('the comparison point', () => {
  it('is the last complete run: a wrong-secret, an interrupted and a filtered run in a row keep it', async () => {
    const dir = await folder();
    const good = await night(dir, full());
    expect(good.written.history).toBeUndefined();
    for (const bad of [wrongSecret(), interrupted(), filtered()]) {
      const { written } = await night(dir, bad);
      // Each bad run is still compared with the good one...
      expect(written.history?.previousStartedAt).toBe(good.written.startedAt);
    }
    // ...and the next full run too: no "absent -> passed" for every check the bad runs left out.
    const next = await night(dir, full());
    expect(next.written.history?.previousStartedAt).toBe(good.written.startedAt);
    expect(next.written.history?.changes).toEqual([]);
    const point = JSON.parse(await readFile(comparisonPointPath(dir, next.written.target), 'utf8'));
    expect(point.checks.length).toBe(FIXTURE_CHECKS.length);
  });

  it('is results.json itself, linked, not written twice; written from the text when it cannot be linked', async () => {
    const dir = await folder();
    const { written } = await night(dir, full());
    const point = comparisonPointPath(dir, written.target);
    const [pointStat, resultsStat] = await Promise.all([stat(point), stat(join(dir, REPORT_FILES.results))]);
    expect(pointStat.ino).toBe(resultsStat.ino);
    // A results.json it cannot link (gone, another device): the point is written from the text.
    const other = await folder();
    expect(
      await keepComparisonPoint(other, written, '{"written":"from the text"}\n', join(other, 'gone.json')),
    ).toBe(true);
    expect(await readFile(comparisonPointPath(other, written.target), 'utf8')).toBe(
      '{"written":"from the text"}\n',
    );
    expect((await readdir(join(other, 'history'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('says why a run cannot be one', () => {
    expect(notAComparisonPoint(full())).toBeUndefined();
    expect(notAComparisonPoint(wrongSecret())).toMatch(/problems|exit 2/);
    expect(notAComparisonPoint(interrupted())).toBe('it was interrupted');
    expect(notAComparisonPoint(filtered())).toBe('it was filtered (--rule TOK-03)');
    expect(notAComparisonPoint(fixtureResults())).toBe('it did not run every check of every area');
  });

  it('a previous results.json that is no complete run is not compared with (a CI cache from before history/)', async () => {
    const dir = await folder();
    await writeFile(join(dir, REPORT_FILES.results), JSON.stringify(filtered()));
    const { written, notes } = await night(dir, full());
    expect(written.history).toBeUndefined();
    expect(notes.join('\n')).toContain('are no comparison point (it was filtered (--rule TOK-03))');
    // A complete one is (the cache restored results.json alone).
    const other = await folder();
    await writeFile(join(other, REPORT_FILES.results), JSON.stringify(full()));
    expect((await night(other, full())).written.history?.changes).toEqual([]);
  });

  it('the embedded server is one target whatever its port; staging by both addresses', async () => {
    const local = (port: number) => ({
      name: 'local' as const,
      apiBaseUrl: `http://127.0.0.1:${port}/api/`,
      petstoreBaseUrl: `http://127.0.0.1:${port}/pets/v1`,
    });
    expect(targetKey(local(4001))).toBe(targetKey(local(4002)));
    const staging = full().target;
    expect(targetKey(staging)).toBe(targetKey({ ...staging, apiBaseUrl: `${staging.apiBaseUrl}/` }));
    expect(targetKey(staging)).not.toBe(targetKey({ ...staging, petstoreBaseUrl: 'https://other.test/v1' }));
    const dir = await folder();
    await night(dir, { ...full(), target: local(4001) });
    const second = await night(dir, { ...full(), target: local(4002) });
    expect(second.written.history?.changes).toEqual([]);
    // A staging run between them neither compares with the local one nor replaces its point.
    expect((await night(dir, full())).written.history).toBeUndefined();
    expect((await night(dir, { ...full(), target: local(4003) })).written.history).toBeDefined();
  });

  it('--baseline FILE pins the run compared with, and the pages say so', async () => {
    const dir = await folder();
    const pinned = join(dir, 'release-1.0.json');
    const old = {
      ...full(),
      startedAt: '2025-12-01T00:00:00.000Z',
      checks: full().checks.map((c) =>
        c.id === 'TOK-WRONG' ? { ...c, status: 'skipped' as const, reason: 'x' } : c,
      ),
    };
    await writeFile(pinned, JSON.stringify(old));
    await night(dir, full());
    const { written } = await night(dir, full(), pinned);
    expect(written.history?.pinned).toBe(pinned);
    expect(written.history?.previousStartedAt).toBe('2025-12-01T00:00:00.000Z');
    expect(written.history?.changes.map((c) => c.id)).toContain('TOK-WRONG');
    expect(renderSummary(written)).toContain(`## Changed since the baseline ${pinned}`);
    expect(renderHtml(written)).toContain('Changed since the baseline');
  });

  it('an interrupted page never calls itself a subset run; a selection says what it selected', () => {
    const stopped = interrupted();
    expect(renderSummary(stopped)).not.toMatch(/subset run/i);
    expect(renderHtml(stopped)).not.toMatch(/subset run/i);
    const selected = filtered();
    // The areas it ran checks of, not every area whose suite was loaded.
    expect(renderSummary(selected)).toContain('Subset run: areas auth-token; only --rule TOK-03.');
    expect(renderHtml(selected)).toContain('subset run: ');
  });
});
