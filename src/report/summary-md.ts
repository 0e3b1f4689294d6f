// reports/summary.md: a short Markdown summary for people and for $GITHUB_STEP_SUMMARY. The
// verdict with its coverage, totals, failing rules first with their reasons and a command to
// reproduce each failure, SHOULD failures apart, then what changed since the previous run against
// the same target, skipped checks with why, the rules not checked, and a table of rules per area.
import {
  markdownCodeBlock,
  markdownText,
  printableCommand,
  UNPRINTABLE_COMMAND,
} from '../../common/safe-text.ts';
import { failingExchange, failingExchangeText, type Reproduction, reproductionOf } from './reproduce.ts';
import { EXIT_MEANINGS, isAskedSubset, subsetAreas } from './results.ts';
import { routeSchemesOf, schemeText } from './route-schemes.ts';
import type { CheckResult, ConformanceResults, RuleResult, RuleStatus, StatusChange } from './types.ts';
import { verdictOf } from './verdict.ts';

const MAX_CELL = 300;

const ICONS: Record<RuleStatus | 'absent', string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  skipped: '⏭️ skipped',
  uncovered: '⚠️ uncovered',
  absent: '∅ absent',
};

/** One line of Markdown-safe text (the one Markdown escaper, common/safe-text.ts). */
export const mdText = (text: string, max = MAX_CELL): string => markdownText(text, max);

/**
 * A command to reproduce a failure, as built, in a fenced block of the list item with a fence no
 * backtick inside can close. Never edited as text: a command of one line takes the item's
 * indentation in front of it; one that is not one line is not shown.
 */
function commandBlock(command: string): string[] {
  const shown = printableCommand(command);
  if (shown === undefined) return [`      ${mdText(UNPRINTABLE_COMMAND)}`];
  return markdownCodeBlock(shown, 'sh').map((line) => `      ${line}`);
}

function reproductionBlock(r: Reproduction): string[] {
  return 'command' in r ? commandBlock(r.command) : [`      ${mdText(r.note)}`];
}

/** An id of ours in code style (escaped, should one ever hold a backtick). */
const code = (id: string) => `\`${id.replace(/`/g, "'")}\``;

function failingChecksOf(rule: RuleResult, checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((c) => c.status === 'failed' && c.rules.includes(rule.id));
}

function ruleBlock(rule: RuleResult, checks: readonly CheckResult[], apiBaseUrl: string): string[] {
  const lines = [`- **${rule.id}** (${rule.level}, ${rule.area}): ${mdText(rule.text)}`];
  for (const c of failingChecksOf(rule, checks)) {
    lines.push(`  - ${code(c.id)} ${mdText(c.title)}: ${mdText(c.reason ?? 'failed')}`);
    const failing = failingExchange(c);
    if (failing) {
      lines.push(
        `    - ${mdText(failingExchangeText(c, failing))}; reproduce with:`,
        '',
        ...reproductionBlock(reproductionOf(failing.exchange, apiBaseUrl)),
        '',
      );
    }
    if (c.replay) lines.push('    - replay with:', '', ...commandBlock(c.replay), '');
  }
  return lines;
}

function changeLine(change: StatusChange): string {
  return `- ${code(change.id)} ${mdText(change.title)}: ${ICONS[change.from]} → ${ICONS[change.to]}`;
}

function headline(results: ConformanceResults): string {
  return `# Conformance of \`${results.target.name}\`: ${mdText(verdictOf(results))} (exit code ${results.exitCode})`;
}

export function renderSummary(results: ConformanceResults): string {
  const { totals, checks, rules } = results;
  const out: string[] = [headline(results), ''];
  out.push(
    `Target \`${results.target.name}\` at ${mdText(results.target.apiBaseUrl)} and ${mdText(results.target.petstoreBaseUrl)}; ` +
      `started ${results.startedAt}, took ${(results.durationMs / 1000).toFixed(1)} s; ` +
      `strict ${results.strict ? 'on' : 'off'}; exit code ${results.exitCode}: ${EXIT_MEANINGS[results.exitCode]}.`,
  );
  if (results.generation) {
    const g = results.generation;
    out.push(
      '',
      `Generated requests: seed ${g.seed}, budget ${g.budget}; the same requests again (with the same \`.env\`):`,
      '',
      ...markdownCodeBlock(g.replay, 'sh'),
    );
  }
  // A run stopped before any check has no scope to speak of: its problem says why.
  if (isAskedSubset(results)) {
    const left = results.scope.selection
      ? `; only ${mdText(results.scope.selection)}`
      : results.scope.filtered
        ? '; filters left some of their checks out'
        : '';
    out.push('', `Subset run: areas ${subsetAreas(results).join(', ')}${left}.`);
  }
  out.push(
    '',
    '| | passed | failed | of them SHOULD (non-strict) or advice | skipped | uncovered |',
    '|---|---:|---:|---:|---:|---:|',
    `| checks | ${totals.checks.passed} | ${totals.checks.failed} | ${totals.checks.nonStrict} | ${totals.checks.skipped} | |`,
    `| rules | ${totals.rules.passed} | ${totals.rules.failed} | | ${totals.rules.skipped} | ${totals.rules.uncovered} |`,
  );

  if (results.problems.length) {
    out.push('', '## Run problems', '');
    for (const p of results.problems) out.push(`- ${mdText(p, 1000)}`);
  }

  const failedRules = rules.filter((r) => r.status === 'failed');
  const hard = failedRules.filter((r) => failingChecksOf(r, checks).some((c) => !c.nonStrict));
  const soft = failedRules.filter((r) => !hard.includes(r) && r.level !== 'ADVICE');
  const advice = failedRules.filter((r) => !hard.includes(r) && r.level === 'ADVICE');
  if (hard.length) {
    out.push('', '## Failing rules', '');
    for (const r of hard) out.push(...ruleBlock(r, checks, results.target.apiBaseUrl));
  }
  if (soft.length) {
    out.push('', '## SHOULD failures (non-strict: they fail the run only with CONFORMANCE_STRICT=1)', '');
    for (const r of soft) out.push(...ruleBlock(r, checks, results.target.apiBaseUrl));
  }
  if (advice.length) {
    out.push(
      '',
      '## Advice not followed (conventions the spec does not state; never a failure of the run)',
      '',
    );
    for (const r of advice) out.push(...ruleBlock(r, checks, results.target.apiBaseUrl));
  }

  if (results.history) {
    const { changes, previousStartedAt } = results.history;
    const against = results.history.pinned
      ? `the baseline ${mdText(results.history.pinned)}`
      : 'the last complete run';
    out.push('', `## Changed since ${against} (${mdText(previousStartedAt)})`, '');
    if (changes.length) for (const c of changes) out.push(changeLine(c));
    else out.push('No check changed status.');
  }

  const schemes = routeSchemesOf(checks);
  if (schemes.length) {
    out.push('', '## Schemes each route took', '', '| route | API key | bearer token |', '|---|---|---|');
    for (const r of schemes) {
      out.push(`| ${mdText(r.route)} | ${mdText(schemeText(r.apiKey))} | ${mdText(schemeText(r.bearer))} |`);
    }
  }

  const skipped = checks.filter((c) => c.status === 'skipped');
  if (skipped.length) {
    out.push('', '## Skipped checks', '');
    for (const c of skipped) out.push(`- ${code(c.id)} ${mdText(c.title)}: ${mdText(c.reason ?? 'skipped')}`);
  }

  if (results.coverage.unchecked.length) {
    out.push(
      '',
      `## Rules not checked (${results.coverage.unchecked.length}), and what would check them`,
      '',
    );
    for (const u of results.coverage.unchecked) out.push(`- **${u.id}** (${u.level}): ${mdText(u.why)}`);
  }

  if (results.scope.areas.length) out.push('', '## Rules by area');
  for (const area of results.scope.areas) {
    const ofArea = rules.filter((r) => r.area === area);
    if (!ofArea.length) continue;
    const failed = ofArea.filter((r) => r.status === 'failed').length;
    const count = `${ofArea.length} rule${ofArea.length === 1 ? '' : 's'}`;
    out.push('', `### ${area} (${count}${failed ? `, ${failed} failed` : ''})`, '');
    out.push('| rule | level | status | checks | text |', '|---|---|---|---|---|');
    for (const r of ofArea) {
      const covered = r.checks.length
        ? r.checks.map(code).join(', ')
        : mdText(r.note ?? (r.status === 'uncovered' ? 'no check' : ''));
      out.push(`| ${r.id} | ${r.level} | ${ICONS[r.status]} | ${covered} | ${mdText(r.text, 160)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}
