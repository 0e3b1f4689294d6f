// reports/junit.xml, written from the same results as the other reports (so its counts are theirs):
// one <testsuite> per spec area, one <testcase> per check of the run. A skipped check carries its
// reason (<skipped message>). A non-strict SHOULD failure is a <failure type="SHOULD (non-strict)">:
// JUnit has no "warning", a skip would hide a defect as "not checked", and a passing case with a
// property shows in no CI interface; a failure is what every CI displays, and its type says it
// does not fail the run (the exit code, not the JUnit file, decides the job).
// Run problems (a suite that could not load, an unreachable target) are <error> test cases.
import { curlOf } from '../client/curl.ts';
import { firstLine } from '../client/errors.ts';
import { failingExchange, failingExchangeText } from './reproduce.ts';
import type { CheckResult, ConformanceResults } from './types.ts';

export const JUNIT_SUITE_NAME = 'payments-crm conformance';
export const SOFT_FAILURE_TYPE = 'SHOULD (non-strict)';

/** XML 1.0 attribute and text: escaped, and characters XML cannot carry replaced. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

/** The test case name: the check and the rules it proves, as people search for them. */
export function caseName(check: Pick<CheckResult, 'id' | 'title' | 'rules'>): string {
  return `${check.id} ${check.title} [${check.rules.join(', ')}]`;
}

function failureBody(c: CheckResult): string {
  const lines = [c.reason ?? 'failed'];
  const failing = failingExchange(c);
  if (failing) lines.push('', failingExchangeText(c, failing), `reproduce with: ${curlOf(failing.exchange)}`);
  if (c.replay) lines.push(`replay with: ${c.replay}`);
  return lines.join('\n');
}

function caseXml(c: CheckResult): string {
  const head = `    <testcase classname="${xmlText(c.area)}" name="${xmlText(caseName(c))}" time="${seconds(c.durationMs)}"`;
  if (c.status === 'passed') return `${head}/>`;
  if (c.status === 'skipped') {
    return `${head}>\n      <skipped message="${xmlText(firstLine(c.reason ?? 'skipped'))}"/>\n    </testcase>`;
  }
  const type = c.nonStrict ? SOFT_FAILURE_TYPE : c.level;
  const prefix = c.nonStrict ? 'SHOULD failure, non-strict (does not fail the run): ' : '';
  const message = `${prefix}${firstLine(c.reason ?? 'failed')}`;
  return `${head}>\n      <failure message="${xmlText(message)}" type="${xmlText(type)}">${xmlText(failureBody(c))}</failure>\n    </testcase>`;
}

export function renderJunit(results: ConformanceResults): string {
  const timestamp = results.startedAt;
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  for (const area of results.scope.areas) {
    const checks = results.checks.filter((c) => c.area === area);
    if (!checks.length) continue;
    const f = checks.filter((c) => c.status === 'failed').length;
    const s = checks.filter((c) => c.status === 'skipped').length;
    const time = seconds(checks.reduce((sum, c) => sum + c.durationMs, 0));
    tests += checks.length;
    failures += f;
    skipped += s;
    suites.push(
      `  <testsuite name="${xmlText(area)}" timestamp="${xmlText(timestamp)}" tests="${checks.length}" failures="${f}" errors="0" skipped="${s}" time="${time}">`,
      ...checks.map(caseXml),
      '  </testsuite>',
    );
  }
  const errors = results.problems.length;
  if (errors) {
    suites.push(
      `  <testsuite name="run" timestamp="${xmlText(timestamp)}" tests="${errors}" failures="0" errors="${errors}" skipped="0" time="0.000">`,
      ...results.problems.map(
        (p, i) =>
          `    <testcase classname="run" name="run problem ${i + 1}: the run checks everything" time="0.000">\n      <error message="${xmlText(firstLine(p))}" type="RunProblem">${xmlText(p)}</error>\n    </testcase>`,
      ),
      '  </testsuite>',
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<testsuites name="${JUNIT_SUITE_NAME}" tests="${tests + errors}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(results.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
