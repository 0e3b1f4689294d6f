// `npm run load:release -- --runners N`: the split run started (split-run.ts), then merged the way
// `npm run merge:load` merges runners that ran elsewhere (the same reader, the same rules), and
// written as the run's one JSON, Markdown and JUnit report. Exit: 0 passed, 1 failed, 3 incomplete
// (a runner's share missing or damaged, named), 130/143 interrupted.
import { createSecretFilter } from '../../common/secret-filter.ts';
import { renderJunit } from '../../load/lib/summary/junit.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { reportPaths } from '../../load/lib/summary/outputs.ts';
import type { Figure, LoadReport } from '../../load/lib/summary/report.ts';
import { renderText } from '../../load/lib/summary/text.ts';
import type { TargetConfig } from '../config/index.ts';
import { type ClientCredential, credentialsFigure } from './credentials-pool.ts';
import { EXIT_INCONCLUSIVE, EXIT_SIGINT, EXIT_SIGTERM } from './exit-code.ts';
import { forwardSignals } from './forward-signals.ts';
import { type K6EnvOptions, k6Environment } from './k6-env.ts';
import { mergeRunnerDirs } from './merge/read-dirs.ts';
import { mergedReport } from './merge/report.ts';
import { readReport, writeAtomically } from './run-outcome.ts';
import { inspectThresholds, startSplitRun } from './split-run.ts';

export interface SplitReleaseOptions {
  k6: string;
  scriptFile: string;
  k6Args: readonly string[];
  runners: number;
  reportDir: string;
  config: TargetConfig;
  /** k6Environment's options, less the report folder (each runner has its own). */
  envOptions: Omit<K6EnvOptions, 'reportDir'>;
  pool: ClientCredential[] | undefined;
  secrets: readonly string[];
  log(line: string): void;
}

export interface SplitReleaseResult {
  code: number;
  report: LoadReport;
  message: string;
}

/** The exit code of a merged verdict. */
export function mergedExit(report: LoadReport, interruptedBy: NodeJS.Signals | undefined): number {
  if (interruptedBy) return interruptedBy === 'SIGTERM' ? EXIT_SIGTERM : EXIT_SIGINT;
  if (report.verdict === 'passed') return 0;
  if (report.verdict === 'failed') return 1;
  return EXIT_INCONCLUSIVE;
}

/** Writes the merged report's three files (secrets removed); returns what was written and the console text. */
export function writeMergedReport(
  reportDir: string,
  report: LoadReport,
  secrets: readonly string[],
): { report: LoadReport; text: string } {
  const clean = createSecretFilter(secrets).deep(report);
  const paths = reportPaths(reportDir, clean.script);
  writeAtomically(paths.json, `${JSON.stringify(clean, null, 2)}\n`);
  writeAtomically(paths.markdown, renderMarkdown(clean));
  writeAtomically(paths.junit, renderJunit(clean));
  return { report: clean, text: renderText(clean, [paths.json, paths.markdown, paths.junit]) };
}

/**
 * What the script says of the whole run's plan (profile, thresholds, pets), from the first runner's
 * own report: every runner reads the same plan, only its share of the users differs.
 */
function planFigures(dirs: string[]): Figure[] {
  for (const dir of dirs) {
    const own = readReport(dir, 'release');
    if (own) return own.figures.filter((f) => ['profile', 'thresholds', 'pets'].includes(f.label));
  }
  return [];
}

export async function runSplitRelease(options: SplitReleaseOptions): Promise<SplitReleaseResult> {
  const { config, pool } = options;
  const configOf = (index: number): TargetConfig => {
    const own = pool?.[index];
    return own ? { ...config, credentials: { ...config.credentials, ...own } } : config;
  };
  const envFor = (index: number, runnerDir: string) =>
    k6Environment(configOf(index), { ...options.envOptions, reportDir: runnerDir });
  const thresholds = inspectThresholds(
    options.k6,
    options.scriptFile,
    options.k6Args,
    envFor(0, options.reportDir),
  );
  const started = Date.now();
  const run = startSplitRun(
    {
      k6: options.k6,
      scriptFile: options.scriptFile,
      k6Args: options.k6Args,
      runners: options.runners,
      reportDir: options.reportDir,
      envFor,
      secrets: options.secrets,
      credentialOf: (i) => configOf(i).credentials.clientId,
      target: { name: config.target, apiBaseUrl: config.apiBaseUrl },
      log: options.log,
    },
    thresholds,
  );
  const signals = forwardSignals(
    (signal) => run.signal(signal),
    (signal) => options.log(`${signal}: stopping every runner (again to end them at once)`),
  );
  // A launcher that ends any other way takes its runners with it.
  const orphans = () => run.signal('SIGKILL');
  process.on('exit', orphans);
  const ends = await run.runners;
  signals.dispose();
  const interruptedBy = signals.interruptedBy;
  process.off('exit', orphans);

  const mergeStarted = performance.now();
  const { merged } = mergeRunnerDirs(ends.map((e) => e.dir));
  for (const e of ends) {
    if (e.notStarted) merged.incomplete.push(`${e.name} (segment ${e.segment}): ${e.notStarted}`);
  }
  if (merged.incomplete.length > 0) merged.verdict = 'incomplete';
  const mergeMs = performance.now() - mergeStarted;
  let report = mergedReport(merged, {
    script: 'release',
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl },
    finishedAt: new Date(),
    figures: [
      ...planFigures(ends.map((e) => e.dir)),
      { label: 'credentials', value: credentialsFigure(pool, options.runners, config.credentials.clientId) },
      {
        label: 'merge',
        value: `${Object.values(merged.samples).reduce((a, b) => a + b, 0)} samples in ${mergeMs.toFixed(0)} ms (runner outputs in runners/)`,
      },
    ],
  });
  if (report.durationMs === 0) report.durationMs = Date.now() - started;
  if (interruptedBy) {
    report = {
      ...report,
      verdict: 'interrupted',
      verdictReason: `stopped by ${interruptedBy} before the end: the figures cover only the part that ran`,
      passed: false,
    };
  }
  const written = writeMergedReport(options.reportDir, report, options.secrets);
  report = written.report;
  process.stdout.write(written.text);
  const code = mergedExit(report, interruptedBy);
  const message = interruptedBy
    ? `interrupted by ${interruptedBy}: the reports are marked "interrupted"`
    : report.verdict === 'incomplete'
      ? `incomplete (exit ${code}): ${report.verdictReason ?? ''}`
      : `${report.verdict} (exit ${code}): one verdict over ${options.runners} runners`;
  return { code, report, message };
}
