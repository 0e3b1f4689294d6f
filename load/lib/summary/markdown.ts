// The Markdown report: a verdict line, the findings, thresholds, checks and the main metrics.
import { markdownCodeBlock, markdownText, terminalText } from '../../../common/safe-text.ts';
import type { Sample } from '../samples.ts';
import { limiterFileName, timelineOf } from './limiter-chart.ts';
import { formatValue, type LoadReport, NO_SPEC_RULE, rulesOfVerdict } from './report.ts';

/** Cells must not break the table, nor carry markup or escapes: the one Markdown escaper. */
function cell(text: string): string {
  return markdownText(text, 2000);
}

/** passed in lower case; anything else shouts. */
export function headline(report: Pick<LoadReport, 'verdict'>): string {
  return report.verdict === 'passed' ? 'passed' : report.verdict.toUpperCase();
}

/** A Markdown link target: a file name of the same folder, with what would break the link escaped. */
function href(file: string): string {
  return encodeURI(file).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** k6's dashboard report and the conformance run beside this one, when the launcher found them. */
function besideLines(report: LoadReport): string[] {
  const lines: string[] = [];
  if (report.dashboard && 'file' in report.dashboard) {
    lines.push(
      `Charts over time: [k6's dashboard report](${href(report.dashboard.file)}) (open it in a browser; it needs no network).`,
    );
  } else if (report.dashboard) {
    lines.push(`No dashboard report: ${cell(report.dashboard.missing)}.`);
  }
  const c = report.conformance;
  if (c) {
    lines.push(
      `Beside the conformance run of ${cell(c.startedAt)} against the same target: ${cell(c.verdict)} (exit code ${cell(String(c.exitCode))}, [${cell(c.file)}](${href(c.file)})).`,
    );
  }
  return lines.length ? [...lines, ''] : [];
}

const MAIN_STATS = ['count', 'rate', 'min', 'avg', 'med', 'p(95)', 'max', 'value'];

/** A failed finding's sample exchange: why, the request's method and route, the answer as sent. */
function sampleBlock(title: string, s: Sample): string[] {
  const headers = Object.entries(s.headers).map(([n, h]) => `${n}: ${h}`);
  return [
    `**${cell(title)}**: ${cell(s.why)}; the first such answer (HTTP ${s.status}):`,
    '',
    // The target's words: control characters shown, no line a CI runner would take as a command.
    ...markdownCodeBlock(
      terminalText(
        [
          ...(s.request ? [s.request, ''] : []),
          `HTTP ${s.status}`,
          ...headers,
          '',
          s.body ?? '(body not read)',
        ].join('\n'),
        { lines: true, max: 2000 },
      ),
      'http',
    ),
    '',
  ];
}

export function renderMarkdown(report: LoadReport): string {
  const lines: string[] = [];
  lines.push(`# k6 ${report.script}: ${headline(report)}`, '');
  if (report.verdictReason) lines.push(`**${report.verdict}**: ${cell(report.verdictReason)}`, '');
  lines.push(
    `Target **${cell(report.target.name)}** (${cell(report.target.apiBaseUrl)}), ` +
      `${(report.durationMs / 1000).toFixed(1)} s, finished ${cell(report.finishedAt)}.`,
    '',
  );
  lines.push(...besideLines(report));
  if (report.rerun) lines.push(`Run it again: \`${report.rerun.replace(/`/g, "'")}\``, '');
  if (report.figures.length) {
    lines.push('## Findings', '', '| | |', '|---|---|');
    for (const f of report.figures) lines.push(`| ${cell(f.label)} | ${cell(f.value)} |`);
    lines.push('');
  }
  if (report.verdicts.length) {
    lines.push('| verdict | rule | result | detail |', '|---|---|---|---|');
    for (const v of report.verdicts) {
      const result = v.ok === null ? 'undecided' : v.ok ? 'pass' : '**FAIL**';
      const rules = rulesOfVerdict(v);
      lines.push(
        `| ${cell(v.name)} | ${rules.length ? rules.map(cell).join('<br>') : cell(NO_SPEC_RULE)} | ${result} | ${cell(v.detail)} |`,
      );
    }
    lines.push('');
    // A failed finding's evidence, under the table: the answer it is about, as the target sent it.
    for (const v of report.verdicts)
      if (v.ok === false && v.sample) lines.push(...sampleBlock(v.name, v.sample));
  }
  if (timelineOf(report.analysis)) {
    lines.push(
      '## The limiter over time',
      '',
      `![accepted and 429 answers over time, and the RateLimit remaining value](${href(limiterFileName(report.script))})`,
      '',
    );
  }
  lines.push('## Thresholds', '');
  if (report.thresholds.length) {
    lines.push('| metric | threshold | measured | result |', '|---|---|---|---|');
    for (const t of report.thresholds) {
      lines.push(
        `| ${cell(t.metric)} | ${cell(t.expression)} | ${cell(t.measured ?? 'not measured')} | ${t.ok ? 'pass' : '**FAIL**'} |`,
      );
    }
    lines.push('');
    for (const t of report.thresholds)
      if (!t.ok && t.sample) lines.push(...sampleBlock(`${t.metric}: ${t.expression}`, t.sample));
  } else {
    lines.push('None.', '');
  }
  lines.push('## Checks', '');
  if (report.checks.length) {
    lines.push('| check | passes | fails |', '|---|---|---|');
    for (const c of report.checks)
      lines.push(`| ${cell(c.name)} | ${c.passes} | ${c.fails ? `**${c.fails}**` : 0} |`);
  } else {
    lines.push('None ran.');
  }
  lines.push('', '## Metrics', '', '| metric | values |', '|---|---|');
  for (const [name, metric] of Object.entries(report.metrics)) {
    const values = MAIN_STATS.filter((s) => metric.values[s] !== undefined)
      .map((s) => `${s} ${formatValue(metric, s, metric.values[s] as number)}`)
      .join(', ');
    lines.push(`| ${cell(name)} | ${cell(values)} |`);
  }
  if (report.notes.length) {
    lines.push('', '## Notes', '');
    // Escaped like every other text: a report read back from the folder may carry anything.
    for (const n of report.notes) lines.push(`- ${cell(n)}`);
  }
  return `${lines.join('\n')}\n`;
}
