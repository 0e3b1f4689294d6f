// Builds the results of a run from its check records: rule statuses derived from the checks, the
// totals and the exit code. Pure: the vitest reporter gathers the records, this decides.
import { AREAS, type Area, RULES, type Rule } from '../rules/catalogue.ts';
import type {
  CheckResult,
  ConformanceResults,
  Coverage,
  ExitCode,
  RuleResult,
  RuleStatus,
  Totals,
} from './types.ts';

export const EXIT_MEANINGS: Record<ExitCode, string> = {
  0: 'every check passed',
  1: 'a check failed',
  2: 'the run could not check everything: configuration, connection or run problem',
  130: 'interrupted (SIGINT, Ctrl-C): the checks that had not finished are not run',
  143: 'interrupted (SIGTERM): the checks that had not finished are not run',
};

export const NO_CHECK_RAN = 'no conformance check ran (do the filters match any check?)';

export interface ResultsInput {
  tool: ConformanceResults['tool'];
  target: ConformanceResults['target'];
  startedAt: Date;
  finishedAt: Date;
  strict: boolean;
  checks: CheckResult[];
  /** Every collected check naming each rule, whether it ran or a filter left it out. */
  coverage: ReadonlyMap<string, readonly string[]>;
  /** Areas whose suites were collected in this run. */
  areas: readonly Area[];
  /** True when filters (--rule, --area, --shard) left collected checks out. */
  filtered: boolean;
  /** The selection the run was asked for (`--check PAG-*`), as the reports name it. */
  selection?: string;
  problems: readonly string[];
  /** Outcome of the self-test files of this run (path -> passed/failed), for client-scoped rules. */
  selfTests?: ReadonlyMap<string, 'passed' | 'failed'>;
  /** The run was interrupted: a rule with no check seen may have had checks not yet loaded. */
  interrupted?: boolean;
  /** The generated requests' seed, budget and the command that replays them. */
  generation?: ConformanceResults['generation'];
}

export const NOT_LOADED_NOTE = 'not run (interrupted): the run ended before its checks were loaded';

/** failed > passed > skipped: one failing check fails the rule. */
function statusOf(checks: readonly CheckResult[]): RuleStatus {
  if (checks.some((c) => c.status === 'failed')) return 'failed';
  if (checks.some((c) => c.status === 'passed')) return 'passed';
  return 'skipped';
}

function ruleResult(rule: Rule, input: ResultsInput): RuleResult {
  const covering = input.checks.filter((c) => c.rules.includes(rule.id));
  const base = {
    id: rule.id,
    area: rule.area,
    level: rule.level,
    text: rule.text,
    // Advice names where it comes from: never read as the spec's own words.
    section: rule.source ? `${rule.section}; advice, not the spec: ${rule.source}` : rule.section,
    checks: covering.map((c) => c.id),
  };
  if (covering.length) return { ...base, status: statusOf(covering) };
  if (rule.scope === 'client') {
    // A rule of the client cannot be broken by a server: its proof is a self-test, which counts
    // when it ran in the same run (npm test), and is otherwise named, not assumed.
    const proof = rule.verifiedBy ? input.selfTests?.get(rule.verifiedBy) : undefined;
    const where = `the self-tests ${rule.verifiedBy ?? '(none named)'}`;
    if (proof) return { ...base, status: proof, note: `client rule, ${proof} in ${where}` };
    return { ...base, status: 'skipped', note: `client rule, verified by ${where} (not run here)` };
  }
  if (input.coverage.get(rule.id)?.length) {
    return { ...base, status: 'skipped', note: 'its checks did not run in this run' };
  }
  // "No check covers it" would be a claim this run cannot make: its suites were not all loaded.
  if (input.interrupted) return { ...base, status: 'skipped', note: NOT_LOADED_NOTE };
  return { ...base, status: 'uncovered' };
}

/** A filtered run reports the rules it touched; a full run every rule of its areas. */
function rulesInScope(input: ResultsInput): Rule[] {
  if (input.filtered) {
    const named = new Set(input.checks.flatMap((c) => c.rules));
    return RULES.filter((r) => named.has(r.id));
  }
  return RULES.filter((r) => input.areas.includes(r.area));
}

export function totalsOf(checks: readonly CheckResult[], rules: readonly RuleResult[]): Totals {
  const countChecks = (s: CheckResult['status']) => checks.filter((c) => c.status === s).length;
  const countRules = (s: RuleStatus) => rules.filter((r) => r.status === s).length;
  const failed = checks.filter((c) => c.status === 'failed');
  return {
    checks: {
      passed: countChecks('passed'),
      failed: countChecks('failed'),
      nonStrict: failed.filter((c) => c.nonStrict).length,
      skipped: countChecks('skipped'),
    },
    rules: {
      passed: countRules('passed'),
      failed: countRules('failed'),
      skipped: countRules('skipped'),
      uncovered: countRules('uncovered'),
    },
    mustFailures: failed.filter((c) => c.level === 'MUST').length,
    shouldFailures: failed.filter((c) => c.level === 'SHOULD').length,
    adviceFailures: failed.filter((c) => c.level === 'ADVICE').length,
  };
}

/** What would check a rule that no check of this run decided: its checks' skip reasons, or its note. */
function whyUnchecked(rule: RuleResult, checks: readonly CheckResult[]): string {
  // Several checks of a rule often skip for the same cause: each clause of their reasons once.
  const clauses = checks
    .filter((c) => c.status === 'skipped' && rule.checks.includes(c.id))
    .flatMap((c) => (c.reason ?? '').split('; '))
    .map((clause) => clause.trim());
  const reasons = [...new Set(clauses)].filter(Boolean);
  if (reasons.length) return reasons.join('; ');
  if (rule.note) return rule.note;
  return rule.status === 'uncovered' ? 'no check covers it' : 'its checks did not run';
}

/** "46 of 58 rules checked": a rule is checked when a check (or its self-test) passed or failed. */
export function coverageOf(rules: readonly RuleResult[], checks: readonly CheckResult[]): Coverage {
  const unchecked = rules.filter((r) => r.status !== 'passed' && r.status !== 'failed');
  return {
    rules: rules.length,
    checked: rules.length - unchecked.length,
    unchecked: unchecked.map((r) => ({ id: r.id, level: r.level, why: whyUnchecked(r, checks) })),
  };
}

/** "46 of 58 rules checked; 12 not checked": the verdict's coverage, said the same everywhere. */
export function coverageText(coverage: Coverage): string {
  const none = coverage.unchecked.length;
  const rules = coverage.rules === 1 ? 'rule' : 'rules';
  return `${coverage.checked} of ${coverage.rules} ${rules} checked${none ? `; ${none} not checked` : ''}`;
}

export function exitCodeOf(checks: readonly CheckResult[], problems: readonly string[]): ExitCode {
  if (problems.length) return 2;
  return checks.some((c) => c.status === 'failed' && !c.nonStrict) ? 1 : 0;
}

/** Failed checks that fail the run, and non-strict SHOULD failures that do not. */
/** Failures that fail the run, SHOULD failures while not strict, and advice not followed. */
export function failureCounts(results: Pick<ConformanceResults, 'checks'>): {
  hard: number;
  soft: number;
  advice: number;
} {
  const failed = results.checks.filter((c) => c.status === 'failed');
  const advice = failed.filter((c) => c.nonStrict && c.level === 'ADVICE').length;
  const soft = failed.filter((c) => c.nonStrict).length - advice;
  return { hard: failed.length - soft - advice, soft, advice };
}

/**
 * "1 SHOULD failure (non-strict), 2 advice not followed (not the spec)": named beside the verdict,
 * so it adds up to the failed total; advice is never called a SHOULD of the spec.
 */
export function softFailuresText(soft: number, advice = 0): string {
  const parts = [];
  if (soft) parts.push(`${soft} SHOULD failure${soft === 1 ? '' : 's'} (non-strict)`);
  if (advice) parts.push(`${advice} advice not followed (not the spec)`);
  return parts.join(', ');
}

/** A run that left checks out (filters) or did not cover every area of the catalogue. */
export function isSubset(results: Pick<ConformanceResults, 'scope'>): boolean {
  return results.scope.filtered || AREAS.some((a) => !results.scope.areas.includes(a));
}

/**
 * Whether the pages call the run a subset run: one asked to run less (a selection, areas, a shard),
 * never one that was interrupted (its areas are those loaded before the signal: it says
 * "interrupted", not "subset"), nor one stopped before any check.
 */
/** The areas a subset run names: with a selection, those it ran checks of (the rest were only loaded). */
export function subsetAreas(results: Pick<ConformanceResults, 'scope' | 'checks'>): Area[] {
  if (!results.scope.selection) return results.scope.areas;
  return results.scope.areas.filter((a) => results.checks.some((c) => c.area === a));
}

export function isAskedSubset(results: Pick<ConformanceResults, 'scope' | 'exitCode'>): boolean {
  if (results.exitCode >= 128) return results.scope.selection !== undefined;
  return results.scope.areas.length > 0 && isSubset(results);
}

const areaIndex = (area: Area) => AREAS.indexOf(area);

export function buildResults(input: ResultsInput): ConformanceResults {
  // Stable order: by area as the catalogue lists them, then as the suites declare them.
  const checks = input.checks
    .map((check, i) => ({ check, i }))
    .sort((a, b) => areaIndex(a.check.area) - areaIndex(b.check.area) || a.i - b.i)
    .map(({ check }) => check);
  const sorted = { ...input, checks };
  const rules = rulesInScope(sorted).map((r) => ruleResult(r, sorted));
  const problems = [...input.problems];
  // The suite's own error proves nothing about the target: the run cannot stand (exit 2).
  for (const c of checks) {
    if (c.failure?.kind === 'suite-error') problems.push(`${c.id} stopped on ${c.failure.message}`);
  }
  if (checks.length === 0 && problems.length === 0) problems.push(NO_CHECK_RAN);
  const areas = AREAS.filter((a) => input.areas.includes(a) || checks.some((c) => c.area === a));
  return {
    tool: input.tool,
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: Math.max(0, input.finishedAt.getTime() - input.startedAt.getTime()),
    strict: input.strict,
    scope: {
      areas,
      // A selection is a filter even when it happened to leave nothing out.
      filtered: input.filtered || input.selection !== undefined,
      ...(input.selection ? { selection: input.selection } : {}),
    },
    checks,
    rules,
    totals: totalsOf(checks, rules),
    coverage: coverageOf(rules, checks),
    problems,
    ...(input.generation ? { generation: input.generation } : {}),
    exitCode: exitCodeOf(checks, problems),
  };
}
