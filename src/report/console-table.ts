// The closing console output of a conformance run: areas by passed/failed/skipped, the failing
// checks with the exchange that failed and a command to reproduce it, the rules the run did not
// check and what would check them, where the reports are, and last the verdict and the exit code.
import { printableCommand, terminalText, UNPRINTABLE_COMMAND } from '../../common/safe-text.ts';
import { failingExchange, failingExchangeText, reproductionOf, reproductionText } from './reproduce.ts';
import { EXIT_MEANINGS } from './results.ts';
import type { CheckResult, ConformanceResults } from './types.ts';
import { uncheckedLines, verdictOf } from './verdict.ts';

const MAX_LISTED = 10;
const MAX_UNCHECKED = 15;
const MAX_REASON = 160;
/** A hint is our own words (and a variable's name): cut only if something went badly wrong. */
const MAX_HINT = 2000;

// Every text of a run here may hold the target's words: one line each, safe for a terminal and a
// CI log (common/safe-text.ts). Secrets were redacted from the results before.
const oneLine = (text: string, max: number) => terminalText(text, { max });

function failureLines(c: CheckResult, apiBaseUrl: string): string[] {
  const soft = !c.nonStrict ? '' : c.level === 'ADVICE' ? ' (advice, not the spec)' : ' (SHOULD, non-strict)';
  const lines = [
    `failed ${oneLine(c.id, 100)} [${oneLine(c.rules.join(', '), 200)}]${soft}: ${oneLine(c.reason ?? '', MAX_REASON)}`,
  ];
  const failing = failingExchange(c);
  if (failing) {
    lines.push(`  ${oneLine(failingExchangeText(c, failing), 300)}`);
    // The command as built, or a note: never edited here.
    lines.push(`  reproduce with: ${reproductionText(reproductionOf(failing.exchange, apiBaseUrl))}`);
  }
  // Whole, on its own line: a cut replay command replays nothing.
  if (c.replay) lines.push(`  replay with: ${printableCommand(c.replay) ?? UNPRINTABLE_COMMAND}`);
  return lines;
}

/**
 * `beside`: the checks ran beside other tests (npm test's self-tests), whose outcome decides that
 * command's exit code: the last line then speaks for the checks only and says so.
 */
export function renderConsoleTable(
  results: ConformanceResults,
  reportPaths: readonly string[],
  beside?: 'self-tests',
): string {
  // A filtered run (--rule) shows the areas it ran checks of, not the ones its filter emptied.
  const areas = results.scope.areas.filter(
    (a) => !results.scope.filtered || results.checks.some((c) => c.area === a),
  );
  const rows = areas.map((area) => {
    const of = results.checks.filter((c) => c.area === area);
    const n = (s: string) => of.filter((c) => c.status === s).length;
    return [area, n('passed'), n('failed'), of.filter((c) => c.nonStrict).length, n('skipped')] as const;
  });
  const t = results.totals.checks;
  const total = ['total', t.passed, t.failed, t.nonStrict, t.skipped] as const;
  const width = Math.max(5, ...rows.map((r) => r[0].length));
  const num = (v: number) => String(v).padStart(7);
  const line = (r: (typeof rows)[number] | typeof total) =>
    `${r[0].padEnd(width)} ${num(r[1])} ${num(r[2])} ${num(r[3])} ${num(r[4])}`;

  // "of them SHOULD": failed checks that are non-strict SHOULD failures (they do not fail the run).
  const out = ['', `${'area'.padEnd(width)}  passed  failed  SHOULD skipped`];
  for (const r of rows) out.push(line(r));
  out.push('-'.repeat(width + 32), line(total));
  if (t.nonStrict) {
    out.push(
      '(SHOULD: failed checks of SHOULD rules, non-strict, or of advice the spec does not state: they do not fail the run)',
    );
  }

  const failed = results.checks.filter((c) => c.status === 'failed');
  if (failed.length) out.push('');
  for (const c of failed.slice(0, MAX_LISTED)) out.push(...failureLines(c, results.target.apiBaseUrl));
  if (failed.length > MAX_LISTED) out.push(`... and ${failed.length - MAX_LISTED} more in the reports`);

  const unchecked = uncheckedLines(results);
  if (unchecked.length) {
    out.push(
      '',
      `not checked (${unchecked.length} rule${unchecked.length === 1 ? '' : 's'}), and what would check each:`,
    );
    // Whole: a hint cut short ("... [19 more characters]") loses the part that says what to do.
    for (const u of unchecked.slice(0, MAX_UNCHECKED)) out.push(`  ${oneLine(u, MAX_HINT)}`);
    if (unchecked.length > MAX_UNCHECKED)
      out.push(`  ... and ${unchecked.length - MAX_UNCHECKED} more in the reports`);
  }
  for (const p of results.problems) out.push(`run problem: ${oneLine(p, 200)}`);

  out.push('', `reports: ${reportPaths.join(', ')}`);
  if (results.generation) {
    const g = results.generation;
    out.push(`generated requests: seed ${g.seed}; the same requests again: ${oneLine(g.replay, 500)}`);
  }
  // Last, whatever came before: the verdict and the exit code.
  out.push(
    verdictOf(results),
    beside
      ? `the conformance checks alone would exit ${results.exitCode} (${EXIT_MEANINGS[results.exitCode]}); this command's result is the closing line below, self-tests included`
      : `exit code ${results.exitCode} (${EXIT_MEANINGS[results.exitCode]})`,
    '',
  );
  return out.join('\n');
}
