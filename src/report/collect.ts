// Turns vitest's finished test modules into check records for the results: the checks that ran
// (their meta.conformance), which rules each collected check names, what filters left out, and
// the run-level problems (a suite that could not load, unhandled errors, an interrupted run).
import type { SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import type { Generation } from '../checks/meta.ts';
import { type Area, levelOfRules } from '../rules/catalogue.ts';
import { areaOfTags, rulesOfTags } from '../rules/tags.ts';
import { errorText, outcomeOf, SELF_PROJECT } from './outcome.ts';
import type { CheckResult } from './types.ts';

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
  /** The generated requests' seed and budget, when a generated check ran. */
  generation?: Generation;
}

/**
 * What a check's test says of itself without its meta (a check that failed before it could
 * describe itself, or one left out by a filter): its rules and area are its tags (check() in
 * src/checks/define.ts), its id the first word of its name ("ID title").
 */
function identityOf(test: TestCase): { id: string; title: string; rules: string[]; area: Area | undefined } {
  const [id = test.name, ...title] = test.name.split(' ');
  return {
    id,
    title: title.join(' ') || test.name,
    rules: rulesOfTags(test.tags),
    area: areaOfTags(test.tags),
  };
}

function areaOfModule(module: TestModule): Area | undefined {
  for (const test of module.children.allTests()) {
    const area = test.meta().conformance?.area ?? areaOfTags(test.tags);
    if (area) return area;
  }
  return undefined;
}

/** The record of one test, or undefined when it is no check of this run (filtered out). */
function checkOf(test: TestCase, area: Area | undefined): CheckResult | undefined {
  const outcome = outcomeOf(test);
  if (!outcome) return undefined;
  const meta = test.meta().conformance;
  // A check that failed before it could describe itself keeps the identity its tags and name give.
  const named = identityOf(test);
  const theArea = meta?.area ?? named.area ?? area;
  if (!theArea) return undefined;
  const base = {
    id: meta?.checkId ?? named.id,
    title: meta?.title ?? named.title,
    area: theArea,
    rules: meta?.rules ?? named.rules,
    level: meta?.level ?? levelOfRules(named.rules),
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
        ...(meta?.replay !== undefined ? { replay: meta.replay } : {}),
        ...(meta?.failure ? { failure: meta.failure } : {}),
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
      const named = identityOf(test);
      for (const id of named.rules) out.coverage.set(id, [...(out.coverage.get(id) ?? []), named.id]);
      const check = checkOf(test, area);
      if (!check) {
        if (test.result().state === 'skipped') out.filtered = true;
        continue;
      }
      out.checks.push(check);
      out.generation ??= test.meta().conformance?.generation;
      const start = test.diagnostic()?.startTime;
      if (start && (out.firstStart === undefined || start < out.firstStart)) out.firstStart = start;
    }
  }
  for (const error of unhandledErrors) out.problems.push(`unhandled error: ${errorText(error)}`);
  if (reason === 'interrupted') out.problems.push('the run was interrupted before every check finished');
  return out;
}
