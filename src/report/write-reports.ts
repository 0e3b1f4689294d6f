// Writes results.json, summary.md, index.html and junit.xml into the reports folder, as one set and
// only once the run has a verdict (an interrupted run's is one): the files are written under
// temporary names and renamed into place together (atomic-write.ts), the last results.json becoming
// previous-results.json in the same step. A run that dies before its verdict (killed, a
// configuration error) leaves the last run's set as it was, whole (issue 33).
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { jsonText } from '../../common/safe-text.ts';
import type { SecretFilter } from '../../common/secret-filter.ts';
import { firstLine } from '../client/errors.ts';
import { cutBody, type RecordedExchange } from '../client/index.ts';
import { writeSetAtomic } from './atomic-write.ts';
import { comparisonPointPath, keepComparisonPoint } from './comparison-point.ts';
import { diffRuns, notComparable, type PreviousRun, readPrevious } from './history.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { loadRunsBeside, nameConformanceRun } from './load-runs.ts';
import { makeFolder } from './reports-dir-check.ts';
import { renderSummary } from './summary-md.ts';
import type { ConformanceResults } from './types.ts';

type Previous = NonNullable<PreviousRun['previous']>;

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

/**
 * How much of each answer a passing check keeps in the reports: the most the HTML report shows of
 * any body. A failed, skipped or inconclusive check keeps what the recorder kept (64 KiB), and every
 * request body stays whole: they are the evidence, and what reproduces the exchange. Each answer was
 * judged whole before this cut (the checks, the invariants, the relations).
 */
export const PASSING_ANSWER_KEPT = 16 * 1024;

/** A passing check's answers cut to PASSING_ANSWER_KEPT, after redaction, with the recorder's mark. */
function withPassingAnswersCut(results: ConformanceResults): ConformanceResults {
  const long = (e: RecordedExchange) => (e.responseBody?.length ?? 0) > PASSING_ANSWER_KEPT;
  return {
    ...results,
    checks: results.checks.map((c) =>
      c.status !== 'passed' || !c.exchanges.some(long)
        ? c
        : {
            ...c,
            exchanges: c.exchanges.map((e) =>
              long(e) ? { ...e, responseBody: cutBody(e.responseBody ?? '', PASSING_ANSWER_KEPT) } : e,
            ),
          },
    ),
  };
}

/** The HAR written with a run's reports when it names none (CI's default, src/report/har.ts). */
export const DEFAULT_HAR = 'run.har';

/** What a run is compared with, and what it writes beside its reports. */
export interface ReportOptions {
  /** The run's exchanges as HAR, from the results as written (redacted): written with the set. */
  har?: { path: string; render: (results: ConformanceResults) => string };
  /** A results file pinned as the comparison point (--baseline FILE), in place of the target's last complete run. */
  baseline?: string;
  /** The folder whose history/ holds the comparison point, when not `dir` (a selection's reports go to filtered/). */
  historyDir?: string;
}

/**
 * The run this one is compared with: the pinned file, else the target's last complete, unfiltered
 * run (history/), else the previous results.json when it is one (a folder from before history/
 * existed, or a CI cache that restored results.json alone).
 */
async function comparisonPoint(
  dir: string,
  built: ConformanceResults,
  options: ReportOptions,
  note: (line: string) => void,
): Promise<{ previous: Previous; pinned?: string } | undefined> {
  if (options.baseline) {
    const read = await readPrevious(options.baseline);
    if (!read.previous) {
      note(
        `the baseline ${options.baseline} ${read.unreadable ?? 'does not exist'}: this run has no history`,
      );
      return undefined;
    }
    const other = notComparable(read.previous, built);
    if (other) note(`the baseline ${options.baseline} ${other}: compared as asked`);
    return { previous: read.previous, pinned: options.baseline };
  }
  const pointPath = comparisonPointPath(options.historyDir ?? dir, built.target);
  const point = await readPrevious(pointPath);
  if (point.unreadable) note(`the comparison point ${pointPath} ${point.unreadable}: set aside`);
  if (point.previous && !point.previous.incomplete && !notComparable(point.previous, built)) {
    return { previous: point.previous };
  }
  // The last run's results.json, still in place (a folder from before history/ existed, or a CI
  // cache that restored it alone); previous-results.json when a run of old removed it.
  const lastPath = join(dir, REPORT_FILES.results);
  const previousPath = existsSync(lastPath) ? lastPath : join(dir, REPORT_FILES.previous);
  const read = await readPrevious(previousPath);
  if (read.unreadable)
    note(`the previous results ${previousPath} ${read.unreadable}: this run has no history`);
  if (!read.previous) return undefined;
  const other = notComparable(read.previous, built);
  if (other) {
    note(`the previous results ${previousPath} ${other}: this run has no history`);
    return undefined;
  }
  if (read.previous.incomplete) {
    note(
      `the previous results ${previousPath} are no comparison point (${read.previous.incomplete}): this run has no history`,
    );
    return undefined;
  }
  return { previous: read.previous };
}

/**
 * Adds the history, redacts, writes the report set (results.json last); returns the results as
 * written (redacted). A complete, unfiltered run then becomes its target's comparison point.
 * `note` hears what the reader should know (a previous results file that had to be ignored).
 */
export async function writeReports(
  dir: string,
  built: ConformanceResults,
  scrubber: SecretFilter,
  note: (line: string) => void = () => undefined,
  options: ReportOptions = {},
): Promise<ConformanceResults> {
  const point = await comparisonPoint(dir, built, options, note);
  const withHistory: ConformanceResults = point
    ? {
        ...built,
        history: { ...(point.pinned ? { pinned: point.pinned } : {}), ...diffRuns(point.previous, built) },
      }
    : built;
  // Redacted as a value, before anything is cut, serialized or rendered: the renderers then only
  // escape for their format, and no text pass runs over what they wrote (such a pass broke the
  // JSON's escaping and the quoting of the curl lines).
  const results = withPassingAnswersCut(withQuotesCut(scrubber.deep(withHistory)));
  await makeFolder(dir);
  const loadRuns = scrubber.deep(loadRunsBeside(dir, results.target, note));
  // results.json last of these: a reader that finds it finds this run's summary.md, index.html and
  // junit.xml beside it. The CLI's exit code does not read it.
  // Serialized once: results.json and, for a complete run, the comparison point hold the same text.
  const resultsText = `${jsonText(results, 2)}\n`;
  const files: Array<readonly [string, string]> = [
    [join(dir, REPORT_FILES.summary), renderSummary(results)],
    [join(dir, REPORT_FILES.html), renderHtml(results, loadRuns)],
    // JUnit from the same results, once: its counts are the other reports' counts.
    [join(dir, REPORT_FILES.junit), renderJunit(results)],
    [join(dir, REPORT_FILES.results), resultsText],
  ];
  if (options.har) files.unshift([options.har.path, options.har.render(results)]);
  const lastResults = join(dir, REPORT_FILES.results);
  const defaultHar = join(dir, DEFAULT_HAR);
  writeSetAtomic(files, () => {
    if (existsSync(lastResults)) renameSync(lastResults, join(dir, REPORT_FILES.previous));
    // The last run's default HAR is not this run's traffic: it goes with the rest of its set.
    if (!options.har || resolve(options.har.path) !== resolve(defaultHar))
      rmSync(defaultHar, { force: true });
  });
  await keepComparisonPoint(dir, results, resultsText, lastResults).catch((error: unknown) =>
    note(`this run could not be kept as the comparison point of its target: ${firstLine(error)}`),
  );
  // The load runs beside it name it in their summaries (one page per release, docs/load.md).
  await nameConformanceRun(dir, results).catch((error: unknown) =>
    note(`the load runs' summaries in ${dir} do not name this run: ${firstLine(error)}`),
  );
  return results;
}
