// reports/junit.xml, written from the same results as the other reports (so its counts are theirs):
// one <testsuite> per spec area, one <testcase> per check of the run. A skipped check carries its
// reason (<skipped message>). A non-strict SHOULD failure is a <failure type="SHOULD (non-strict)">:
// JUnit has no "warning", a skip would hide a defect as "not checked", and a passing case with a
// property shows in no CI interface; a failure is what every CI displays, and its type says it
// does not fail the run (the exit code, not the JUnit file, decides the job).
// Run problems (a suite that could not load, an unreachable target) are <error> test cases.
import { type JunitCase, type JunitSuite, renderJunitXml } from '../../common/junit.ts';
import { firstLine } from '../client/errors.ts';
import { failingExchange, failingExchangeText, reproductionOf, reproductionText } from './reproduce.ts';
import type { CheckResult, ConformanceResults } from './types.ts';

export const JUNIT_SUITE_NAME = 'payments-crm conformance';
export const SOFT_FAILURE_TYPE = 'SHOULD (non-strict)';

export { xmlText } from '../../common/safe-text.ts';

/** The test case name: the check and the rules it proves, as people search for them. */
export function caseName(check: Pick<CheckResult, 'id' | 'title' | 'rules'>): string {
  return `${check.id} ${check.title} [${check.rules.join(', ')}]`;
}

function failureBody(c: CheckResult, apiBaseUrl: string): string {
  const lines = [c.reason ?? 'failed'];
  const failing = failingExchange(c);
  if (failing) {
    const command = reproductionText(reproductionOf(failing.exchange, apiBaseUrl));
    lines.push('', failingExchangeText(c, failing), `reproduce with: ${command}`);
  }
  if (c.replay) lines.push(`replay with: ${c.replay}`);
  return lines.join('\n');
}

function caseOf(c: CheckResult, apiBaseUrl: string): JunitCase {
  const base = { classname: c.area, name: caseName(c), time: c.durationMs / 1000 };
  if (c.status === 'passed') return base;
  if (c.status === 'skipped') return { ...base, skipped: firstLine(c.reason ?? 'skipped') };
  // Advice fails no run either, but it is not the spec's SHOULD: it says so.
  const advice = c.level === 'ADVICE';
  const prefix = !c.nonStrict
    ? ''
    : advice
      ? 'advice, not the spec (does not fail the run): '
      : 'SHOULD failure, non-strict (does not fail the run): ';
  return {
    ...base,
    failure: {
      message: `${prefix}${firstLine(c.reason ?? 'failed')}`,
      type: c.nonStrict && !advice ? SOFT_FAILURE_TYPE : c.level,
      body: failureBody(c, apiBaseUrl),
    },
  };
}

/** Run problems (a suite that could not load, an unreachable target) as error cases. */
function problemsSuite(results: ConformanceResults): JunitSuite {
  return {
    name: 'run',
    timestamp: results.startedAt,
    time: 0,
    cases: results.problems.map((p, i) => ({
      classname: 'run',
      name: `run problem ${i + 1}: the run checks everything`,
      error: { message: firstLine(p), type: 'RunProblem', body: p },
    })),
  };
}

export function renderJunit(results: ConformanceResults): string {
  const suites: JunitSuite[] = [];
  for (const area of results.scope.areas) {
    const checks = results.checks.filter((c) => c.area === area);
    if (checks.length)
      suites.push({
        name: area,
        timestamp: results.startedAt,
        cases: checks.map((c) => caseOf(c, results.target.apiBaseUrl)),
      });
  }
  if (results.problems.length) suites.push(problemsSuite(results));
  return renderJunitXml({ name: JUNIT_SUITE_NAME, time: results.durationMs / 1000, suites });
}
