// What handleSummary returns: the three report files and the console text, rendered from the
// report with every secret value removed by the suite's one secret filter (a secret can only get
// there by accident, which is the point). Redacted as a value before rendering: a text pass over
// the written JSON could eat an escaping backslash and leave it invalid.
import { jsonText } from '../../../common/safe-text.ts';
import { createSecretFilter } from '../../../common/secret-filter.ts';
import { trimTrailingSlashes } from '../../../common/trailing-slashes.ts';
import { renderJunit } from './junit.ts';
import { figuresOf, limiterFileName, renderLimiterSvg, timelineOf } from './limiter-chart.ts';
import { renderMarkdown } from './markdown.ts';
import type { LoadReport } from './report.ts';
import { renderText } from './text.ts';

export interface ReportPaths {
  json: string;
  markdown: string;
  junit: string;
  /** k6's web-dashboard export, written by k6 itself when the launcher asks for it. */
  dashboard: string;
  /** The limiter drawn (rate-limit only: limiter-chart.ts). */
  limiter: string;
}

export function reportPaths(reportDir: string, script: string): ReportPaths {
  const dir = trimTrailingSlashes(reportDir) || '.';
  const base = `${dir}/k6-${script}`;
  return {
    json: `${base}.json`,
    markdown: `${base}.md`,
    junit: `${base}.junit.xml`,
    dashboard: `${base}.html`,
    limiter: `${dir}/${limiterFileName(script)}`,
  };
}

export function summaryOutputs(
  raw: LoadReport,
  reportDir: string,
  secrets: readonly string[],
): Record<string, string> {
  const report = createSecretFilter(secrets).deep(raw);
  const paths = reportPaths(reportDir, report.script);
  const timeline = timelineOf(report.analysis);
  const written = [paths.json, paths.markdown, paths.junit, ...(timeline ? [paths.limiter] : [])];
  const files: Record<string, string> = {
    [paths.json]: `${jsonText(report, 2)}\n`,
    [paths.markdown]: renderMarkdown(report),
    [paths.junit]: renderJunit(report),
    stdout: renderText(report, written),
  };
  if (timeline) files[paths.limiter] = renderLimiterSvg(timeline, figuresOf(report.analysis));
  return files;
}
