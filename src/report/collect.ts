// Turns vitest's finished test modules into check records for the results: the checks that ran
// (their meta.conformance), which rules each collected check names, what filters left out, and
// the run-level problems (a suite that could not load, unhandled errors, an interrupted run).
import { stripVTControlCharacters } from 'node:util';
import type { SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import { AREAS, type Area, findRule, type RuleLevel } from '../rules/catalogue.ts';
import type { CheckResult } from './types.ts';
import '../checks/meta.ts';

/** Project whose tests are the suite's own self-tests, never conformance checks. */
export const SELF_PROJECT = 'self';
const MAX_REASON = 4000;

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

export function errorText(error: { message?: string; name?: string } | undefined): string {
  const text = stripVTControlCharacters(error?.message ?? error?.name ?? 'unknown error').trim();
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
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
  const meta = test.meta().conformance;
  const result = test.result();
  const durationMs = Math.round(test.diagnostic()?.duration ?? 0);
  if (!meta) {
    // A check that failed before it could describe itself must not vanish from the report.
    if (result.state !== 'failed' || !area) return undefined;
    const named = parseName(test.name);
    return {
      id: named.id,
      title: named.title,
      area,
      rules: named.rules.filter((id) => findRule(id)),
      level: levelOf(named.rules),
      status: 'failed',
      reason: result.errors.map(errorText).join('\n') || 'failed',
      durationMs,
      exchanges: [],
    };
  }
  const base = {
    id: meta.checkId,
    title: meta.title,
    area: meta.area,
    rules: meta.rules,
    level: meta.level,
    durationMs,
    exchanges: meta.exchanges ?? [],
  };
  switch (result.state) {
    case 'passed':
      return meta.softFailure
        ? { ...base, status: 'failed', nonStrict: true, reason: meta.softFailure }
        : { ...base, status: 'passed' };
    case 'failed':
      return { ...base, status: 'failed', reason: result.errors.map(errorText).join('\n') || 'failed' };
    case 'skipped':
      return {
        ...base,
        status: 'skipped',
        reason: meta.skipReason ?? result.note ?? 'skipped (no reason given)',
      };
    default:
      return { ...base, status: 'skipped', reason: 'did not finish: the run ended first' };
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
