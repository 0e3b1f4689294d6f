// What handleSummary returns: the three report files and the console text, with every secret
// value removed from all of them (a secret can only get there by accident, which is the point).
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { LoadReport } from './report.ts';
import { renderText } from './text.ts';

export function redactSecrets(text: string, secrets: readonly string[]): string {
  // Longest first, so a secret that contains another is removed whole.
  const sorted = secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return sorted.reduce((out, secret) => out.split(secret).join('[REDACTED]'), text);
}

export function reportPaths(
  reportDir: string,
  script: string,
): { json: string; markdown: string; junit: string } {
  const base = `${reportDir.replace(/\/+$/, '') || '.'}/k6-${script}`;
  return { json: `${base}.json`, markdown: `${base}.md`, junit: `${base}.junit.xml` };
}

export function summaryOutputs(
  report: LoadReport,
  reportDir: string,
  secrets: readonly string[],
): Record<string, string> {
  const paths = reportPaths(reportDir, report.script);
  const files: Record<string, string> = {
    [paths.json]: `${JSON.stringify(report, null, 2)}\n`,
    [paths.markdown]: renderMarkdown(report),
    [paths.junit]: renderJunit(report),
    stdout: renderText(report, [paths.json, paths.markdown, paths.junit]),
  };
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, redactSecrets(v, secrets)]));
}
