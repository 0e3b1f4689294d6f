// The history never trusts a previous results.json it cannot read: cut short, not JSON, not a
// results file, unreadable. Each is ignored, the run's reports are written without history, and
// the reader is told why; a missing file (a first run) is no news.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { readPrevious } from '../../src/report/history.ts';
import { REPORT_FILES, writeReports } from '../../src/report/write-reports.ts';
import { fixtureResults } from './fixture.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'history-unreadable-'));
  dirs.push(dir);
  return dir;
}

describe('an unreadable previous results.json', () => {
  it.each([
    ['cut short', '{"startedAt":"2026-11-24T10:00:00.000Z","checks":[{"id":"A', /^does not parse \(.+\)$/],
    ['not JSON', '<html>', /^does not parse \(.+\)$/],
    ['not a results file', '{"hello":"world"}', /^is not a results file \(no startedAt or checks\)$/],
  ])('%s: ignored, and the run says so', async (_name, text, why) => {
    const dir = await folder();
    const path = join(dir, REPORT_FILES.previous);
    await writeFile(path, text);
    const read = await readPrevious(path);
    expect(read.previous).toBeUndefined();
    expect(read.unreadable).toMatch(why);

    const notes: string[] = [];
    const written = await writeReports(dir, fixtureResults(), createSecretFilter([]), (line) =>
      notes.push(line),
    );
    expect(written.history).toBeUndefined();
    expect(notes).toEqual([`the previous results ${path} ${read.unreadable}: this run has no history`]);
    expect(JSON.parse(await readFile(join(dir, REPORT_FILES.results), 'utf8')).history).toBeUndefined();
  });

  it('a folder in its place: cannot be read, ignored', async () => {
    const dir = await folder();
    await mkdir(join(dir, REPORT_FILES.previous));
    expect(await readPrevious(join(dir, REPORT_FILES.previous))).toEqual({
      unreadable: 'cannot be read (EISDIR)',
    });
  });

  it('none at all (a first run): no history and no note', async () => {
    const dir = await folder();
    const notes: string[] = [];
    await writeReports(dir, fixtureResults(), createSecretFilter([]), (line) => notes.push(line));
    expect(await readPrevious(join(dir, REPORT_FILES.previous))).toEqual({});
    expect(notes).toEqual([]);
  });
});
