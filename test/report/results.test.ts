import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { diffRuns } from '../../src/report/history.ts';
import { buildResults, exitCodeOf, NO_CHECK_RAN } from '../../src/report/results.ts';
import type { CheckResult, ConformanceResults } from '../../src/report/types.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { FIXTURE_CHECKS, FIXTURE_UNCOVERED, fixtureInput, fixtureResults } from './fixture.ts';

const schema = JSON.parse(readFileSync('schemas/results.schema.json', 'utf8'));
const ajv = new Ajv2020.default({ allErrors: true, strict: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

function expectValid(results: unknown): void {
  const ok = validate(results);
  expect(ok ? [] : validate.errors).toEqual([]);
}

const ruleStatus = (r: ConformanceResults, id: string) => r.rules.find((x) => x.id === id)?.status;

describe('buildResults', () => {
  const results = fixtureResults();

  it('counts checks and tells MUST failures from SHOULD ones and advice', () => {
    expect(results.totals.checks).toEqual({ passed: 3, failed: 3, nonStrict: 1, skipped: 1 });
    expect(results.totals.mustFailures).toBe(2);
    expect(results.totals.shouldFailures).toBe(0);
    expect(results.totals.adviceFailures).toBe(1);
    expect(results.durationMs).toBe(42_500);
    expect(results.startedAt).toBe('2026-01-05T10:00:00.000Z');
  });

  it('derives each rule from its checks: failed > passed > skipped, uncovered when none', () => {
    expect(ruleStatus(results, 'TOK-01')).toBe('passed');
    expect(ruleStatus(results, 'TOK-03')).toBe('failed');
    expect(ruleStatus(results, 'PAG-03')).toBe('failed');
    expect(ruleStatus(results, 'PAG-13')).toBe('failed');
    expect(ruleStatus(results, 'FLG-02')).toBe('skipped');
    expect(FIXTURE_UNCOVERED.length).toBeGreaterThan(0);
    for (const id of FIXTURE_UNCOVERED) expect(ruleStatus(results, id)).toBe('uncovered');
    expect(results.totals.rules.uncovered).toBe(FIXTURE_UNCOVERED.length);
    expect(results.rules.find((r) => r.id === 'PAG-03')?.checks).toEqual(['PAG-SHOWING']);
  });

  it('a rule with one failing and one passing check is failed', () => {
    const both: CheckResult[] = [
      { ...(FIXTURE_CHECKS[0] as CheckResult), id: 'A', rules: ['TOK-01'], status: 'passed' },
      { ...(FIXTURE_CHECKS[0] as CheckResult), id: 'B', rules: ['TOK-01'], status: 'failed', reason: 'x' },
    ];
    expect(ruleStatus(buildResults(fixtureInput({ checks: both })), 'TOK-01')).toBe('failed');
  });

  it('reports the client-scoped rule by its self-test, skipped with the reason when it did not run', () => {
    const ren04 = results.rules.find((r) => r.id === 'REN-04');
    expect(ren04?.status).toBe('skipped');
    expect(ren04?.note).toContain('test/client/token-manager.test.ts');
    const withSelf = (state: 'passed' | 'failed') =>
      buildResults(fixtureInput({ selfTests: new Map([['test/client/token-manager.test.ts', state]]) }));
    expect(ruleStatus(withSelf('passed'), 'REN-04')).toBe('passed');
    expect(ruleStatus(withSelf('failed'), 'REN-04')).toBe('failed');
  });

  it('exit code: 1 for a MUST failure, 0 with only non-strict SHOULD failures, 1 for them when strict', () => {
    expect(results.exitCode).toBe(1);
    const soft = FIXTURE_CHECKS.filter((c) => c.status !== 'failed' || c.nonStrict);
    expect(buildResults(fixtureInput({ checks: soft })).exitCode).toBe(0);
    const strictFailure = soft.map((c) => (c.nonStrict ? { ...c, nonStrict: undefined } : c));
    expect(buildResults(fixtureInput({ checks: strictFailure, strict: true })).exitCode).toBe(1);
    expect(exitCodeOf([], [])).toBe(0);
  });

  it('exit code 2 for a run problem, and when no check ran at all', () => {
    const problem = buildResults(fixtureInput({ problems: ['unhandled error: boom'] }));
    expect(problem.exitCode).toBe(2);
    const none = buildResults(fixtureInput({ checks: [] }));
    expect(none.exitCode).toBe(2);
    expect(none.problems).toEqual([NO_CHECK_RAN]);
  });

  it('a filtered run lists only the rules its checks name; a rule whose checks were left out is skipped', () => {
    const filtered = buildResults(fixtureInput({ filtered: true }));
    expect(filtered.rules.map((r) => r.id).sort()).toEqual(
      [...new Set(FIXTURE_CHECKS.flatMap((c) => c.rules))].sort(),
    );
    const coverage = new Map([...fixtureInput().coverage, ['FLG-01', ['FLG-CACHED']]]);
    const unrun = buildResults(fixtureInput({ coverage })).rules.find((r) => r.id === 'FLG-01');
    expect(unrun?.status).toBe('skipped');
    expect(unrun?.note).toMatch(/did not run/);
  });

  it('orders checks by catalogue area, keeping declaration order inside an area', () => {
    const shuffled = [...FIXTURE_CHECKS].reverse();
    const ids = buildResults(fixtureInput({ checks: shuffled })).checks.map((c) => c.id);
    expect(ids.slice(0, 2)).toEqual(['TOK-WRONG', 'TOK-VALID']);
    expect(ids.at(-1)).toBe('FLG-WINDOW');
  });
});

describe('schemas/results.schema.json', () => {
  it('lists exactly the catalogue areas', () => {
    expect(schema.$defs.area.enum).toEqual([...AREAS]);
  });

  it('accepts the fixture results, with and without history', () => {
    const results = fixtureResults();
    expectValid(results);
    expectValid({ ...results, history: diffRuns(results, results) });
    expectValid(buildResults(fixtureInput({ checks: [], problems: ['x'] })));
  });

  it('refuses what breaks the contract', () => {
    const results = fixtureResults();
    expect(validate({ ...results, exitCode: 3 })).toBe(false);
    expect(validate({ ...results, target: { ...results.target, clientSecret: 'x' } })).toBe(false);
    const skippedWithoutReason = results.checks.map((c) =>
      c.status === 'skipped' ? { ...c, reason: undefined } : c,
    );
    expect(validate(JSON.parse(JSON.stringify({ ...results, checks: skippedWithoutReason })))).toBe(false);
    const softMust = results.checks.map((c) => (c.nonStrict ? { ...c, level: 'MUST' } : c));
    expect(validate({ ...results, checks: softMust })).toBe(false);
  });
});
