// One page per release: the load runs (k6-<script>.json written by the k6 scripts) that sit in the
// same reports folder as a conformance run and went against the same target, for index.html to
// show with their verdicts, times and links; and, the other way, the conformance run a load run
// names in its own summary. Runs against another target are never shown. The local target is one
// target although each run starts its own embedded reference server on a free port.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SecretFilter } from '../../common/secret-filter.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { reportPaths } from '../../load/lib/summary/outputs.ts';
import type { ConformanceBeside, LoadReport } from '../../load/lib/summary/report.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { renderHtml } from './html.ts';
import type { LoadRunEntry, RunTarget } from './load-run-entry.ts';
import { readBackLoadReport, readBackResults } from './read-back.ts';
import { LOCK_FILE } from './run-lock.ts';
import type { ConformanceResults } from './types.ts';
import { verdictOf } from './verdict.ts';

/** The conformance run's files (REPORT_FILES of write-reports.ts, which imports this module). */
export const CONFORMANCE_FILES = { results: 'results.json', html: 'index.html' } as const;

export type { LoadRunEntry, RunTarget } from './load-run-entry.ts';

function normalized(url: string): string {
  try {
    return trimTrailingSlashes(new URL(url).href);
  } catch {
    return trimTrailingSlashes(url);
  }
}

export function sameTarget(a: RunTarget, b: RunTarget): boolean {
  if (a.name !== b.name) return false;
  // The embedded reference server has no fixed address: every run starts its own.
  if (a.name === 'local') return true;
  return normalized(a.apiBaseUrl) === normalized(b.apiBaseUrl);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The JSON reports of the load runs in `dir` against `target`; `note` hears each one set aside. */
function loadReportsBeside(dir: string, target: RunTarget, note: (line: string) => void): LoadReport[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const reports: LoadReport[] = [];
  for (const name of names) {
    if (!/^k6-[\w.-]+\.json$/.test(name)) continue;
    const held = readBackLoadReport(readJson(join(dir, name)));
    if (!held.ok) {
      note(`${join(dir, name)} ${held.reason}: set aside, not shown`);
      continue;
    }
    const report = held.value;
    if (!sameTarget(target, report.target)) continue;
    if (basename(reportPaths(dir, report.script).json) === name) reports.push(report);
  }
  return reports;
}

/** The load runs of `dir` against `target`, the latest first. */
export function loadRunsBeside(
  dir: string,
  target: RunTarget,
  note: (line: string) => void = () => undefined,
): LoadRunEntry[] {
  const runs: LoadRunEntry[] = [];
  for (const report of loadReportsBeside(dir, target, note)) {
    const paths = reportPaths(dir, report.script);
    runs.push({
      script: report.script,
      verdict: report.verdict,
      ...(report.verdictReason ? { verdictReason: report.verdictReason } : {}),
      finishedAt: report.finishedAt,
      durationMs: report.durationMs,
      target: report.target,
      markdown: basename(paths.markdown),
      // A run that says it has none (one that never started) is never given the last run's.
      ...(existsSync(paths.dashboard) && !(report.dashboard && 'missing' in report.dashboard)
        ? { dashboard: basename(paths.dashboard) }
        : {}),
      figures: Array.isArray(report.figures) ? report.figures : [],
      verdicts: Array.isArray(report.verdicts) ? report.verdicts : [],
      ...(report.analysis ? { analysis: report.analysis } : {}),
    });
  }
  return runs.sort((a, b) => b.finishedAt.localeCompare(a.finishedAt));
}

/** The finished conformance run of `dir` (its results.json), or undefined. */
export function readConformanceResults(dir: string): ConformanceResults | undefined {
  const read = readJson(join(dir, CONFORMANCE_FILES.results));
  if (read === undefined) return undefined;
  // Untrusted: re-rendered into index.html only when it is a results file by its schema.
  const held = readBackResults(read);
  return held.ok ? held.value : undefined;
}

/** What a load run's summary says of the conformance run beside it, when there is one of its target. */
export function conformanceBeside(
  results: ConformanceResults | undefined,
  target: RunTarget,
): ConformanceBeside | undefined {
  if (!results || !sameTarget(results.target, target)) return undefined;
  return {
    startedAt: results.startedAt,
    exitCode: results.exitCode,
    verdict: verdictOf(results),
    file: CONFORMANCE_FILES.html,
  };
}

/**
 * After a load run: the folder's conformance page (index.html) rendered again from its
 * results.json, now listing the load runs of its target. Left alone when the conformance run is of
 * another target, or one is writing the folder now (it lists the load runs itself when it ends).
 */
export async function refreshConformancePage(
  dir: string,
  target: RunTarget,
  filter: SecretFilter,
): Promise<boolean> {
  if (existsSync(join(dir, LOCK_FILE))) return false;
  const results = readConformanceResults(dir);
  if (!results || !sameTarget(results.target, target)) return false;
  // Redacted as values before rendering, as the conformance run does (write-reports.ts).
  const runs = filter.deep(loadRunsBeside(dir, results.target));
  await writeFileAtomic(join(dir, CONFORMANCE_FILES.html), renderHtml(filter.deep(results), runs));
  return true;
}

/**
 * After a conformance run: the summaries of the load runs of its target in the same folder name it
 * (JSON and Markdown written again), so a load run names the conformance run beside it whichever
 * came first.
 */
export async function nameConformanceRun(dir: string, results: ConformanceResults): Promise<void> {
  const beside = conformanceBeside(results, results.target);
  if (!beside) return;
  for (const report of loadReportsBeside(dir, results.target, () => undefined)) {
    if (JSON.stringify(report.conformance) === JSON.stringify(beside)) continue;
    const named: LoadReport = { ...report, conformance: beside };
    const paths = reportPaths(dir, report.script);
    await writeFileAtomic(paths.json, `${JSON.stringify(named, null, 2)}\n`);
    await writeFileAtomic(paths.markdown, renderMarkdown(named));
  }
}
