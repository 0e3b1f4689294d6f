// After k6 has ended: what its reports say, and the mark of an interrupted run. k6 writes its
// summary on the first SIGINT/SIGTERM too (exit 105) but cannot know it was stopped, so the CLI
// re-renders the three report files with the verdict "interrupted"; when k6 was stopped before it
// wrote anything, a report saying so is written instead, so an interrupted run is never read as
// passed nor as a broken file. Every file is written beside its place and renamed into it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { renderJunit } from '../../load/lib/summary/junit.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { reportPaths } from '../../load/lib/summary/outputs.ts';
import type { LoadReport, RunVerdict, Verdict } from '../../load/lib/summary/report.ts';
import { findRule } from '../rules/catalogue.ts';

/** What only the launcher knows of a run, once k6 has ended. */
export type LaunchFacts = Pick<LoadReport, 'dashboard' | 'conformance' | 'rerun'> & {
  /** Why the launcher left the pet traffic out (its preflight), shown as the "pets" figure. */
  petsLeftOut?: string;
};

/** Writes through a temporary file in the same folder, so a reader never sees half a file. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/**
 * The JSON report k6 wrote, or undefined when there is none (or it does not parse). since: only a
 * report finished at or after it, so that a run k6 never started (k6 refusing its arguments) is not
 * given the previous run's verdict.
 */
export function readReport(reportDir: string, script: string, since?: Date): LoadReport | undefined {
  const { json } = reportPaths(reportDir, script);
  if (!existsSync(json)) return undefined;
  try {
    const report = JSON.parse(readFileSync(json, 'utf8')) as LoadReport;
    if (typeof report !== 'object' || report === null || typeof report.script !== 'string') return undefined;
    // finishedAt has millisecond precision; startedAt is taken before k6 is spawned.
    if (since && !(Date.parse(report.finishedAt) >= since.getTime())) return undefined;
    return report;
  } catch {
    return undefined;
  }
}

/** The verdict of a finished run: its report's, or what k6's exit code implies for older reports. */
export function reportVerdict(report: LoadReport | undefined): RunVerdict | undefined {
  if (!report) return undefined;
  return report.verdict ?? (report.passed ? 'passed' : 'failed');
}

export interface Interruption {
  /** The signal the run was stopped with, when known. */
  signal?: NodeJS.Signals;
  startedAt: Date;
}

/** Writes the three report files of `report` again (JSON, Markdown, JUnit), each atomically. */
function rewrite(reportDir: string, script: string, report: LoadReport): void {
  const paths = reportPaths(reportDir, script);
  writeAtomically(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeAtomically(paths.markdown, renderMarkdown(report));
  writeAtomically(paths.junit, renderJunit(report));
}

/**
 * Adds the launcher's facts (the dashboard report, the conformance run beside, why the pets were
 * left out) to the run's reports.
 */
export function annotateReport(
  reportDir: string,
  script: string,
  report: LoadReport,
  facts: LaunchFacts,
): LoadReport {
  const annotated: LoadReport = { ...report, verdicts: report.verdicts.map(withRuleTexts) };
  delete annotated.dashboard;
  delete annotated.conformance;
  if (facts.dashboard) annotated.dashboard = facts.dashboard;
  if (facts.conformance) annotated.conformance = facts.conformance;
  if (facts.rerun) annotated.rerun = facts.rerun;
  if (facts.petsLeftOut) {
    // The script only knows the pets were withheld; the reason is the launcher's.
    const pets = { label: 'pets', value: `not listed: ${facts.petsLeftOut}` };
    const at = report.figures.findIndex((f) => f.label === 'pets');
    annotated.figures =
      at === -1 ? [...report.figures, pets] : report.figures.map((f, i) => (i === at ? pets : f));
  }
  rewrite(reportDir, script, annotated);
  return annotated;
}

/** Where a run that never started puts the last run's report files, whole (k6-<script>.previous.*). */
export function previousPaths(
  reportDir: string,
  script: string,
): { json: string; markdown: string; junit: string } {
  const paths = reportPaths(reportDir, script);
  const aside = (path: string) =>
    path.replace(/^(.*\/k6-[^/]*?)(\.json|\.md|\.junit\.xml)$/, '$1.previous$2');
  return { json: aside(paths.json), markdown: aside(paths.markdown), junit: aside(paths.junit) };
}

/** A report this launcher writes where k6 wrote none: no figures, only its verdict and why. */
function reportWithoutSummary(
  script: string,
  target: LoadReport['target'],
  startedAt: Date,
  verdict: LoadReport['verdict'],
  verdictReason: string,
  notes: string[],
): LoadReport {
  return {
    tool: 'payments-crm-conformance k6 harness',
    script,
    target,
    finishedAt: new Date().toISOString(),
    durationMs: Math.max(0, Date.now() - startedAt.getTime()),
    verdict,
    verdictReason,
    passed: false,
    thresholds: [],
    checks: [],
    metrics: {},
    figures: [],
    verdicts: [],
    notes,
  };
}

/**
 * A run that never started (the launcher refused before k6, or k6 refused its arguments): its own
 * entry, verdict "did not run" with the reason, so no page shows the last run's verdict as this
 * one's. Nothing of the last run is removed: its report files move whole to k6-<script>.previous.*
 * (a "did not run" entry before this one is simply replaced), its dashboard stays where it is,
 * named in a note, never linked as this run's.
 */
export function writeDidNotRun(
  reportDir: string,
  script: string,
  target: LoadReport['target'],
  reason: string,
  startedAt: Date = new Date(),
): LoadReport {
  const paths = reportPaths(reportDir, script);
  let before = readReport(reportDir, script);
  if (before && before.verdict !== 'did not run') {
    const aside = previousPaths(reportDir, script);
    for (const key of ['json', 'markdown', 'junit'] as const) {
      if (existsSync(paths[key])) renameSync(paths[key], aside[key]);
    }
  } else {
    // The entry before was one of these too: the run before it is the one set aside earlier.
    before = readAside(previousPaths(reportDir, script).json);
  }
  const kept = existsSync(paths.dashboard)
    ? `; its dashboard ${basename(paths.dashboard)} is still there`
    : '';
  const report: LoadReport = {
    ...reportWithoutSummary(
      script,
      target,
      startedAt,
      'did not run',
      reason,
      before
        ? [
            `the run before this one (${reportVerdict(before)}, finished ${before.finishedAt}) is not this run: its reports are ${basename(previousPaths(reportDir, script).markdown)} and .json${kept}`,
          ]
        : [],
    ),
    dashboard: { missing: 'the run did not start' },
  };
  rewrite(reportDir, script, report);
  return report;
}

function readAside(path: string): LoadReport | undefined {
  try {
    const report = JSON.parse(readFileSync(path, 'utf8')) as LoadReport;
    return typeof report?.finishedAt === 'string' ? report : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A verdict with its rules' level and the spec's words from the catalogue (k6 cannot load it), so
 * the Markdown, JSON and JUnit outputs quote what the finding judged.
 */
export function withRuleTexts(v: Verdict): Verdict {
  const ids = v.rules ?? (v.rule ? [v.rule] : []);
  const texts = ids.flatMap((id) => {
    const rule = findRule(id);
    return rule ? [{ id, level: rule.level, text: rule.text, section: rule.section }] : [];
  });
  return texts.length ? { ...v, ruleTexts: texts } : v;
}

/** Marks the script's reports interrupted (writing a bare one when k6 left none); returns it. */
export function markInterrupted(
  reportDir: string,
  script: string,
  target: LoadReport['target'],
  interruption: Interruption,
): LoadReport {
  const found = readReport(reportDir, script, interruption.startedAt);
  const reason = `stopped by ${interruption.signal ?? 'a signal'} before the end: the figures cover only the part that ran`;
  const report: LoadReport = found
    ? { ...found, verdict: 'interrupted', verdictReason: reason, passed: false }
    : reportWithoutSummary(
        script,
        target,
        interruption.startedAt,
        'interrupted',
        `${reason}; k6 ended before writing its summary`,
        [],
      );
  rewrite(reportDir, script, report);
  return report;
}
