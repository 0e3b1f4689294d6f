// History means something only against the same target: the reports compare a run with the
// previous one only when both base addresses are the same, and say so otherwise.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { notComparable } from '../../src/report/history.ts';
import type { ConformanceResults } from '../../src/report/types.ts';
import { REPORT_FILES, writeReports } from '../../src/report/write-reports.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { fixtureResults } from './fixture.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function withPrevious(previous: ConformanceResults, current: ConformanceResults) {
  const dir = await mkdtemp(join(tmpdir(), 'history-'));
  dirs.push(dir);
  // A complete run (every area) is a comparison point; the fixture's own covers one area.
  const complete = { ...previous, scope: { ...previous.scope, areas: [...AREAS] } };
  await writeFile(join(dir, REPORT_FILES.previous), JSON.stringify(complete));
  const notes: string[] = [];
  const written = await writeReports(dir, current, createSecretFilter([]), (line) => notes.push(line));
  return { written, notes, summary: await readFile(join(dir, REPORT_FILES.summary), 'utf8') };
}

describe('history', () => {
  const current = fixtureResults();
  const flipped = {
    ...current,
    // A passed check carries no failure: the previous file is held to its schema when read back.
    checks: current.checks.map((c) =>
      c.status === 'failed'
        ? {
            ...c,
            status: 'passed' as const,
            failure: undefined,
            nonStrict: undefined,
            reason: undefined,
            failedExchange: undefined,
          }
        : c,
    ),
  };

  it('compares with the previous run against the same target', async () => {
    const { written, summary } = await withPrevious(flipped, current);
    expect(written.history?.changes.length).toBeGreaterThan(0);
    expect(summary).toContain('## Changed since the last complete run');
    // Failures first, then the changes.
    expect(summary.indexOf('## Failing rules')).toBeLessThan(summary.indexOf('## Changed since'));
  });

  it('does not compare with a run against another target, and says why', async () => {
    const other = { ...flipped, target: { ...flipped.target, apiBaseUrl: 'http://127.0.0.1:9/api/' } };
    const { written, notes, summary } = await withPrevious(other, current);
    expect(written.history).toBeUndefined();
    expect(summary).not.toContain('## Changed since');
    expect(notes.join('\n')).toContain('are of another target (http://127.0.0.1:9/api/)');
  });

  it('the pet base counts too; a previous run that names no target is not compared', () => {
    const pets = { ...current.target, petstoreBaseUrl: 'http://elsewhere/v1' };
    expect(notComparable({ ...current, target: pets }, current)).toMatch(/another target/);
    expect(notComparable({ ...current, target: undefined }, current)).toBe('name no target');
    expect(notComparable(current, current)).toBeUndefined();
  });
});
