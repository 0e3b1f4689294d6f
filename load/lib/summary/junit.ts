// The JUnit report: one test case per threshold, check and verdict, so CI shows which one failed.
import type { LoadReport } from './report.ts';

export function escapeXml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // Characters XML 1.0 cannot carry at all.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
  );
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
      ...(t.ok ? {} : { failure: `threshold ${t.expression} on ${t.metric} was crossed` }),
    })),
    ...report.checks.map((c) => ({
      classname: `${prefix}.checks`,
      name: c.name,
      ...(c.fails ? { failure: `${c.fails} of ${c.passes + c.fails} failed` } : {}),
    })),
    // A run that proved nothing, or was stopped, must not read as green in CI.
    ...(report.verdict === 'inconclusive' || report.verdict === 'interrupted'
      ? [
          {
            classname: `${prefix}.run`,
            name: 'the run put its rule to the test',
            failure: `${report.verdict}: ${report.verdictReason ?? ''}`,
          },
        ]
      : []),
    ...report.verdicts.map((v) => ({
      classname: `${prefix}.analysis`,
      name: v.name,
      ...(v.ok === false ? { failure: v.detail } : v.ok === null ? { skipped: v.detail } : {}),
    })),
  ];
}

export function renderJunit(report: LoadReport): string {
  const all = cases(report);
  const failures = all.filter((c) => c.failure !== undefined).length;
  const skipped = all.filter((c) => c.skipped !== undefined).length;
  const seconds = (report.durationMs / 1000).toFixed(3);
  const name = escapeXml(`k6-${report.script}`);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${all.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}">`,
    `  <testsuite name="${name}" tests="${all.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}" timestamp="${escapeXml(report.finishedAt)}">`,
    '    <properties>',
    `      <property name="target" value="${escapeXml(report.target.name)}"/>`,
    `      <property name="apiBaseUrl" value="${escapeXml(report.target.apiBaseUrl)}"/>`,
    '    </properties>',
  ];
  for (const c of all) {
    const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="0"`;
    if (c.failure !== undefined) {
      lines.push(`${open}>`, `      <failure message="${escapeXml(c.failure)}"/>`, '    </testcase>');
    } else if (c.skipped !== undefined) {
      lines.push(`${open}>`, `      <skipped message="${escapeXml(c.skipped)}"/>`, '    </testcase>');
    } else {
      lines.push(`${open}/>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}
