// Writes results.json, summary.md and index.html into the reports folder. The previous results
// move aside when a run starts, so a run that dies leaves no stale report behind and the next
// summary still compares with the last finished run. Every file is written atomically
// (atomic-write.ts): a reader sees the old file or the new one, never a truncated one.
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonText } from '../../common/safe-text.ts';
import type { SecretFilter } from '../../common/secret-filter.ts';
import { firstLine } from '../client/errors.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { diffRuns, notComparable, readPrevious } from './history.ts';
import { renderHtml } from './html.ts';
import { loadRunsBeside, nameConformanceRun } from './load-runs.ts';
import { makeFolder } from './reports-dir-check.ts';
import { renderSummary } from './summary-md.ts';
import type { ConformanceResults } from './types.ts';

export const REPORT_FILES = {
  results: 'results.json',
  previous: 'previous-results.json',
  summary: 'summary.md',
  html: 'index.html',
  junit: 'junit.xml',
} as const;

/** How much of the target's quoted text a failure keeps in the reports (its exchange keeps up to 64 KiB). */
export const QUOTE_KEPT = 4096;

/** Each failure's quote cut, after redaction: a cut first could leave the start of a secret. */
function withQuotesCut(results: ConformanceResults): ConformanceResults {
  const cut = (quote: string) =>
    quote.length <= QUOTE_KEPT
      ? quote
      : `${quote.slice(0, QUOTE_KEPT)}… [${quote.length - QUOTE_KEPT} more characters]`;
  return {
    ...results,
    checks: results.checks.map((c) =>
      c.failure?.quote === undefined ? c : { ...c, failure: { ...c.failure, quote: cut(c.failure.quote) } },
    ),
  };
}

/** At the start of a run: the last results become the previous ones; stale pages go. */
export async function rotateReports(dir: string): Promise<void> {
  await makeFolder(dir);
  await rename(join(dir, REPORT_FILES.results), join(dir, REPORT_FILES.previous)).catch(() => undefined);
  // junit.xml too: a run killed outright must not leave the last run's test report looking like its own.
  await Promise.all(
    [REPORT_FILES.summary, REPORT_FILES.html, REPORT_FILES.junit].map((f) =>
      rm(join(dir, f), { force: true }),
    ),
  );
}

/**
 * Adds the history, redacts, writes the three files; returns the results as written (redacted). `note` hears
 * what the reader should know (a previous results file that had to be ignored).
 */
export async function writeReports(
  dir: string,
  built: ConformanceResults,
  scrubber: SecretFilter,
  note: (line: string) => void = () => undefined,
): Promise<ConformanceResults> {
  const previousPath = join(dir, REPORT_FILES.previous);
  const read = await readPrevious(previousPath);
  if (read.unreadable)
    note(`the previous results ${previousPath} ${read.unreadable}: this run has no history`);
  const other = read.previous ? notComparable(read.previous, built) : undefined;
  if (other) note(`the previous results ${previousPath} ${other}: this run has no history`);
  const withHistory = read.previous && !other ? { ...built, history: diffRuns(read.previous, built) } : built;
  // Redacted as a value, before anything is cut, serialized or rendered: the renderers then only
  // escape for their format, and no text pass runs over what they wrote (such a pass broke the
  // JSON's escaping and the quoting of the curl lines).
  const results = withQuotesCut(scrubber.deep(withHistory));
  await makeFolder(dir);
  // results.json last of these three (the reporter writes junit.xml after it): a reader that finds
  // it finds this run's summary.md and index.html beside it. The CLI's exit code does not read it.
  await writeFileAtomic(join(dir, REPORT_FILES.summary), renderSummary(results));
  const loadRuns = scrubber.deep(loadRunsBeside(dir, results.target, note));
  await writeFileAtomic(join(dir, REPORT_FILES.html), renderHtml(results, loadRuns));
  await writeFileAtomic(join(dir, REPORT_FILES.results), `${jsonText(results, 2)}\n`);
  // The load runs beside it name it in their summaries (one page per release, docs/load.md).
  await nameConformanceRun(dir, results).catch((error: unknown) =>
    note(`the load runs' summaries in ${dir} do not name this run: ${firstLine(error)}`),
  );
  return results;
}
