// The closing console output of a conformance run: areas by passed/failed/skipped, the failing
// checks in one line each, where the reports are, and the exit code with its meaning.
import { EXIT_MEANINGS } from './results.ts';
import type { ConformanceResults } from './types.ts';

const MAX_LISTED = 10;
const MAX_REASON = 100;

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function renderConsoleTable(results: ConformanceResults, reportPaths: readonly string[]): string {
  const rows = results.scope.areas.map((area) => {
    const of = results.checks.filter((c) => c.area === area);
    const n = (s: string) => of.filter((c) => c.status === s).length;
    return [area, n('passed'), n('failed'), n('skipped')] as const;
  });
  const t = results.totals.checks;
  const all = [...rows, ['total', t.passed, t.failed, t.skipped] as const];
  const width = Math.max(5, ...all.map((r) => r[0].length));
  const num = (v: number) => String(v).padStart(7);
  const line = (r: (typeof all)[number]) => `${r[0].padEnd(width)} ${num(r[1])} ${num(r[2])} ${num(r[3])}`;

  const out = ['', `${'area'.padEnd(width)}  passed  failed skipped`];
  for (const r of rows) out.push(line(r));
  out.push('-'.repeat(width + 24), line(all[all.length - 1] ?? ['total', 0, 0, 0]));

  const failed = results.checks.filter((c) => c.status === 'failed');
  if (failed.length) out.push('');
  for (const c of failed.slice(0, MAX_LISTED)) {
    const soft = c.nonStrict ? ' (SHOULD, non-strict)' : '';
    out.push(`failed ${c.id} [${c.rules.join(', ')}]${soft}: ${oneLine(c.reason ?? '', MAX_REASON)}`);
  }
  if (failed.length > MAX_LISTED) out.push(`... and ${failed.length - MAX_LISTED} more in the reports`);
  for (const p of results.problems) out.push(`run problem: ${oneLine(p, 200)}`);

  out.push('', `reports: ${reportPaths.join(', ')}`);
  out.push(`exit code ${results.exitCode} (${EXIT_MEANINGS[results.exitCode]})`, '');
  return out.join('\n');
}
