// Turns vitest's finished test modules into check records for the results: the checks that ran
// (their meta.conformance), which rules each collected check names, what filters left out, and
// the run-level problems (a suite that could not load, unhandled errors, an interrupted run).
import type { SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import { AREAS, type Area, findRule, type RuleLevel } from '../rules/catalogue.ts';
import { errorText, outcomeOf, SELF_PROJECT } from './outcome.ts';
import type { CheckResult } from './types.ts';
import '../checks/meta.ts';

export { SELF_PROJECT };

export interface Collected {
  checks: CheckResult[];
  coverage: Map<string, string[]>;
  areas: Area[];
  filtered: boolean;
  problems: string[];
  selfTests: Map<string, 'passed' | 'failed'>;
  /** Conformance modules seen: none means this run was not a conformance run. */
  conformanceModules: number;
  /** Earliest start of a check (epoch ms), for runs merged from shards. */
  firstStart: number | undefined;
}

/** Check names are "ID title [RULE, RULE]" (checkName in src/checks/define.ts). */
function parseName(name: string): { id: string; title: string; rules: string[] } {
  const match = /^(\S+)\s+(.*?)\s*\[([^\]]*)\]$/.exec(name);
  if (!match) return { id: name.split(' ')[0] ?? name, title: name, rules: [] };
  const rules = (match[3] ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  return { id: match[1] ?? name, title: match[2] ?? name, rules };
}

function areaOfModule(module: TestModule): Area | undefined {
  const base = module.relativeModuleId
    .split('/')
    .pop()
    ?.replace(/\.test\.[cm]?[jt]s$/, '');
  const byFile = AREAS.find((a) => a === base);
  if (byFile) return byFile;
  for (const test of module.children.allTests()) {
    const area = test.meta().conformance?.area;
    if (area) return area;
  }
  return undefined;
}

function levelOf(rules: string[]): RuleLevel {
  return rules.length && rules.every((id) => findRule(id)?.level === 'SHOULD') ? 'SHOULD' : 'MUST';
}

/** The record of one test, or undefined when it is no check of this run (filtered out). */
function checkOf(test: TestCase, area: Area | undefined): CheckResult | undefined {
  const outcome = outcomeOf(test);
  if (!outcome) return undefined;
  const meta = test.meta().conformance;
  const named = parseName(test.name);
  // A check that failed before it could describe itself keeps the identity its name gives.
  const theArea = meta?.area ?? area;
  if (!theArea) return undefined;
  const base = {
    id: meta?.checkId ?? named.id,
    title: meta?.title ?? named.title,
    area: theArea,
    rules: meta?.rules ?? named.rules.filter((id) => findRule(id)),
    level: meta?.level ?? levelOf(named.rules),
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    exchanges: meta?.exchanges ?? [],
  };
  switch (outcome.kind) {
    case 'passed':
      return { ...base, status: 'passed' };
    case 'failed':
      return {
        ...base,
        status: 'failed',
        ...(outcome.nonStrict ? { nonStrict: true } : {}),
        reason: outcome.reason,
        ...(meta?.failedExchange !== undefined ? { failedExchange: meta.failedExchange } : {}),
      };
    default:
      return { ...base, status: 'skipped', reason: outcome.reason };
  }
}

export function collect(
  modules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason,
): Collected {
  const out: Collected = {
    checks: [],
    coverage: new Map(),
    areas: [],
    filtered: false,
    problems: [],
    selfTests: new Map(),
    conformanceModules: 0,
    firstStart: undefined,
  };
  for (const module of modules) {
    if (module.project.name === SELF_PROJECT) {
      const state = module.state();
      if (state === 'passed' || state === 'failed') out.selfTests.set(module.relativeModuleId, state);
      continue;
    }
    out.conformanceModules++;
    const area = areaOfModule(module);
    if (area && !out.areas.includes(area)) out.areas.push(area);
    for (const error of module.errors()) {
      out.problems.push(`${module.relativeModuleId} could not run: ${errorText(error)}`);
    }
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors()) {
        out.problems.push(`${module.relativeModuleId} > ${suite.name}: ${errorText(error)}`);
      }
    }
    for (const test of module.children.allTests()) {
      const named = parseName(test.name);
      for (const id of named.rules) out.coverage.set(id, [...(out.coverage.get(id) ?? []), named.id]);
      const check = checkOf(test, area);
      if (!check) {
        if (test.result().state === 'skipped') out.filtered = true;
        continue;
      }
      out.checks.push(check);
      const start = test.diagnostic()?.startTime;
      if (start && (out.firstStart === undefined || start < out.firstStart)) out.firstStart = start;
    }
  }
  for (const error of unhandledErrors) out.problems.push(`unhandled error: ${errorText(error)}`);
  if (reason === 'interrupted') out.problems.push('the run was interrupted before every check finished');
  return out;
}
