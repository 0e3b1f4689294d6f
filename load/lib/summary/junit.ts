// The JUnit report: one test case per threshold, check and verdict, so CI shows which one failed.
// The cases are described here; the one JUnit writer (common/junit.ts) writes them.
import { type JunitCase, renderJunitXml } from '../../../common/junit.ts';
import { xmlText } from '../../../common/safe-text.ts';
import type { Sample } from '../samples.ts';
import { type LoadReport, rulesOfVerdict } from './report.ts';

/** XML text and attributes (the one XML escaper, common/safe-text.ts). */
export const escapeXml = xmlText;

/** A failed finding's sample, in one line of a failure message. */
function sampleText(s: Sample): string {
  return `first such answer${s.request ? ` to ${s.request}` : ''}: HTTP ${s.status}${s.body ? ` ${s.body.slice(0, 300)}` : ''}`;
}

interface Case {
  classname: string;
  name: string;
  failure?: string;
  skipped?: string;
}

function cases(report: LoadReport): Case[] {
  const prefix = `k6.${report.script}`;
  return [
    ...report.thresholds.map((t) => ({
      classname: `${prefix}.thresholds`,
      name: `${t.metric}: ${t.expression}`,
      ...(t.ok
        ? {}
        : {
            failure: `threshold ${t.expression} on ${t.metric} was crossed${t.measured ? `: measured ${t.measured}` : ''}${t.sample ? `; ${sampleText(t.sample)}` : ''}${report.rerun ? `; run again: ${report.rerun}` : ''}`,
          }),
    })),
    ...report.checks.map((c) => ({
      classname: `${prefix}.checks`,
      name: c.name,
      ...(c.fails ? { failure: `${c.fails} of ${c.passes + c.fails} failed` } : {}),
    })),
    // A run that proved nothing, or was stopped, must not read as green in CI.
    ...(report.verdict === 'inconclusive' ||
    report.verdict === 'interrupted' ||
    report.verdict === 'incomplete' ||
    report.verdict === 'did not run'
      ? [
          {
            classname: `${prefix}.run`,
            name: 'the run put its rule to the test',
            failure: `${report.verdict}: ${report.verdictReason ?? ''}`,
          },
        ]
      : []),
    ...report.verdicts.map((v) => {
      // The rule ids end the name, as the conformance cases' do ("... [RATE-01]"); a failure quotes them.
      const ids = v.rules ?? (v.rule ? [v.rule] : []);
      const quoted = rulesOfVerdict(v);
      const rules = quoted.length ? `${v.detail} (${quoted.join('; ')})` : v.detail;
      // A failed finding says how to see it again.
      const seen = v.ok === false && v.sample ? `${rules}; ${sampleText(v.sample)}` : rules;
      const detail = v.ok === false && report.rerun ? `${seen}; run again: ${report.rerun}` : seen;
      return {
        classname: `${prefix}.analysis`,
        name: ids.length ? `${v.name} [${ids.join(', ')}]` : v.name,
        ...(v.ok === false ? { failure: detail } : v.ok === null ? { skipped: detail } : {}),
      };
    }),
  ];
}

export function renderJunit(report: LoadReport): string {
  const junitCases: JunitCase[] = cases(report).map((c) => ({
    classname: c.classname,
    name: c.name,
    ...(c.failure !== undefined ? { failure: { message: c.failure } } : {}),
    ...(c.skipped !== undefined ? { skipped: c.skipped } : {}),
  }));
  const name = `k6-${report.script}`;
  const time = report.durationMs / 1000;
  return renderJunitXml({
    name,
    time,
    suites: [
      {
        name,
        time,
        timestamp: report.finishedAt,
        properties: { target: report.target.name, apiBaseUrl: report.target.apiBaseUrl },
        cases: junitCases,
      },
    ],
  });
}
