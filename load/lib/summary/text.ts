// The console summary k6 prints in place of its own (handleSummary replaces it).
import { terminalText } from '../../../common/safe-text.ts';
import { headline } from './markdown.ts';
import { formatValue, type LoadReport } from './report.ts';

/** The console is a terminal or a CI log: what the target said, made safe for both, one line. */
const t = (text: string) => terminalText(text, { max: 1000 });

export function renderText(report: LoadReport, files: readonly string[]): string {
  const lines = [
    `k6 ${report.script} against ${report.target.name} (${report.target.apiBaseUrl}): ${headline(report)} in ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  if (report.verdictReason) lines.push(`  ${report.verdict}: ${t(report.verdictReason)}`);
  for (const f of report.figures) lines.push(`  ${t(f.label)}: ${t(f.value)}`);
  for (const v of report.verdicts) {
    lines.push(`  ${v.ok === null ? '?' : v.ok ? '✓' : '✗'} ${t(v.name)}: ${t(v.detail)}`);
  }
  for (const t of report.thresholds)
    lines.push(
      `  ${t.ok ? '✓' : '✗'} threshold ${t.metric} ${t.expression}${t.measured ? ` (measured ${t.measured})` : ''}`,
    );
  const failedChecks = report.checks.filter((c) => c.fails > 0);
  for (const c of failedChecks)
    lines.push(`  ✗ check "${t(c.name)}": ${c.fails} of ${c.passes + c.fails} failed`);
  const checksRun = report.checks.reduce((n, c) => n + c.passes + c.fails, 0);
  lines.push(`  checks: ${checksRun} run, ${failedChecks.length} failing`);
  const requests = report.metrics.http_reqs;
  const duration = report.metrics.http_req_duration;
  if (requests?.values.count !== undefined) {
    const p95 = duration?.values['p(95)'];
    lines.push(
      `  requests: ${requests.values.count}${p95 !== undefined && duration ? `, p(95) ${formatValue(duration, 'p(95)', p95)}` : ''}`,
    );
  }
  for (const n of report.notes) lines.push(`  note: ${t(n)}`);
  if (files.length) lines.push(`  reports: ${files.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
