// The release verdict over the steps of `npm run release-check`: what each step's exit code means
// and what they mean together. Pure, so the workflow's gate (.github/scripts/release-gate.sh) and
// the tests read the same table.
import {
  EXIT_FAILED,
  EXIT_INCONCLUSIVE,
  EXIT_PASSED,
  EXIT_SETUP,
  signalOfExit,
} from '../../common/exit-codes.ts';

export type StepName = 'conformance' | 'rate-limit' | 'flag-cache' | 'release';

export interface StepResult {
  name: StepName;
  /** The command as a person would type it. */
  command: string;
  exitCode: number;
  /** The step's last line on stderr (its verdict line), when it printed one. */
  lastLine?: string;
}

export type StepVerdict = 'passed' | 'failed' | 'not proved' | 'did not run' | 'interrupted';

/** Each command's exit codes (README, docs/load.md): 3 only from a load run, proving nothing. */
export function stepVerdict(exitCode: number): StepVerdict {
  if (exitCode === EXIT_PASSED) return 'passed';
  if (exitCode === EXIT_FAILED) return 'failed';
  if (exitCode === EXIT_INCONCLUSIVE) return 'not proved';
  if (signalOfExit(exitCode)) return 'interrupted';
  // 2 and anything else (k6's own codes): nothing was judged.
  return 'did not run';
}

/**
 * The release's exit code: interrupted wins (the page is partial), then a failure (a MUST check, a
 * threshold: the release must not go), then a step that could not run, then a step that proved
 * nothing (3: never "passed"), else 0.
 */
export function releaseExitCode(steps: readonly StepResult[]): number {
  const interrupted = steps.find((s) => signalOfExit(s.exitCode));
  if (interrupted) return interrupted.exitCode;
  const verdicts = steps.map((s) => stepVerdict(s.exitCode));
  if (verdicts.includes('failed')) return EXIT_FAILED;
  if (verdicts.includes('did not run') || steps.length === 0) return EXIT_SETUP;
  if (verdicts.includes('not proved')) return EXIT_INCONCLUSIVE;
  return EXIT_PASSED;
}

const RELEASE_WORDS: Record<number, string> = {
  [EXIT_PASSED]: 'passed: every step passed',
  [EXIT_FAILED]: 'FAILED: a step failed (a MUST check or a threshold); do not release',
  [EXIT_SETUP]: 'did not complete: a step could not run (see its line)',
  [EXIT_INCONCLUSIVE]: 'not proved: nothing failed, but a probe proved nothing (exit 3)',
};

export function releaseWords(exitCode: number): string {
  return RELEASE_WORDS[exitCode] ?? `interrupted (exit ${exitCode}): the page is partial`;
}

/** One tab-separated line per step, for the workflow's shell steps: name, exit code, verdict, command, last line. */
export function stepsTsv(steps: readonly StepResult[]): string {
  const clean = (text: string) => text.replace(/[\t\r\n]+/g, ' ').trim();
  return steps
    .map((s) =>
      [s.name, String(s.exitCode), stepVerdict(s.exitCode), s.command, clean(s.lastLine ?? '')].join('\t'),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** The reports of each step, relative to the reports folder (the HAR files are listed when present). */
export const STEP_REPORTS: Record<StepName, string[]> = {
  conformance: ['index.html', 'summary.md', 'junit.xml', 'results.json'],
  'rate-limit': ['k6-rate-limit.md', 'k6-rate-limit.html', 'k6-rate-limit.junit.xml'],
  'flag-cache': ['k6-flag-cache.md', 'k6-flag-cache.html', 'k6-flag-cache.junit.xml'],
  release: ['k6-release.md', 'k6-release.html', 'k6-release.junit.xml'],
};

/** release.md: the release's verdict, one row per step with its reports, and the HAR files. */
export function releaseMarkdown(
  steps: readonly StepResult[],
  present: (file: string) => boolean,
  har: readonly string[],
  run: { startedAt: string; finishedAt: string; target: string },
): string {
  const exitCode = releaseExitCode(steps);
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
  const rows = steps.map((s) => {
    const links = STEP_REPORTS[s.name]
      .filter(present)
      .map((f) => `[${f}](${f})`)
      .join(' ');
    return `| ${s.name} | ${stepVerdict(s.exitCode)} (exit ${s.exitCode}) | \`${cell(s.command)}\` | ${cell(s.lastLine ?? '')} | ${links || 'none written'} |`;
  });
  return [
    `# Release check: ${releaseWords(exitCode)}`,
    '',
    `Target ${run.target}; started ${run.startedAt}, finished ${run.finishedAt}; exit code ${exitCode}.`,
    'The conformance page, [index.html](index.html), lists the load runs beside it.',
    '',
    '| step | verdict | command | last line | reports |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    har.length > 0
      ? `Traffic (HAR): ${har.map((f) => `[${f}](${f})`).join(' ')}`
      : 'Traffic (HAR): none written by this run.',
    '',
  ].join('\n');
}
