// Writes results.json, summary.md and index.html into the reports folder. The previous results
// move aside when a run starts, so a run that dies leaves no stale report behind and the next
// summary still compares with the last finished run.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diffRuns, readPrevious } from './history.ts';
import { renderHtml } from './html.ts';
import type { Scrubber } from './scrub.ts';
import { renderSummary } from './summary-md.ts';
import type { ConformanceResults } from './types.ts';

export const REPORT_FILES = {
  results: 'results.json',
  previous: 'previous-results.json',
  summary: 'summary.md',
  html: 'index.html',
  junit: 'junit.xml',
} as const;

/** At the start of a run: the last results become the previous ones; stale pages go. */
export async function rotateReports(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await rename(join(dir, REPORT_FILES.results), join(dir, REPORT_FILES.previous)).catch(() => undefined);
  await Promise.all([REPORT_FILES.summary, REPORT_FILES.html].map((f) => rm(join(dir, f), { force: true })));
}

/** Adds the history, scrubs, writes the three files; returns the results as written. */
export async function writeReports(
  dir: string,
  built: ConformanceResults,
  scrubber: Scrubber,
): Promise<ConformanceResults> {
  const previous = await readPrevious(join(dir, REPORT_FILES.previous));
  const withHistory = previous ? { ...built, history: diffRuns(previous, built) } : built;
  const results = scrubber.deep(withHistory);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, REPORT_FILES.results), scrubber.text(`${JSON.stringify(results, null, 2)}\n`));
  await writeFile(join(dir, REPORT_FILES.summary), scrubber.text(renderSummary(results)));
  await writeFile(join(dir, REPORT_FILES.html), scrubber.text(renderHtml(results)));
  return results;
}
