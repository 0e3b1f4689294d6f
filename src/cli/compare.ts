// npm run compare -- A.json B.json
// What changed from one conformance run to another: any two results.json files (two nights, two
// environments, a release and its candidate), each held to its schema first. Prints the checks
// whose status differs, newly failing first. Exit codes: 0 no check fails in B that did not in A,
// 1 a check newly fails in B, 2 a file that cannot be read or is no results file.
import { parseArgs } from 'node:util';
import { terminalText } from '../../common/safe-text.ts';
import { firstLine } from '../client/errors.ts';
import { diffRuns, notComparable, readPrevious } from '../report/history.ts';
import { readBackResults } from '../report/read-back.ts';
import type { ConformanceResults } from '../report/types.ts';
import { exitAfterOutput } from './exit.ts';

const USAGE = `usage: npm run compare -- A.json B.json
  Lists the checks whose status differs from run A (the earlier) to run B, newly failing first.
  Both are results.json files of npm run conformance (reports/results.json,
  reports/history/<target>.json, a downloaded CI artifact); each is held to its schema first.
  -h, --help  this text

exit codes: 0 no check newly fails in B, 1 a check that did not fail in A fails in B,
  2 a file that cannot be read or is no results file
docs: docs/reports.md (History)`;

function fail(message: string): never {
  process.stderr.write(`compare: ${message}\n`);
  process.exit(2);
}

async function results(path: string): Promise<ConformanceResults> {
  const read = await readPrevious(path);
  if (!read.previous) fail(`${path} ${read.unreadable ?? 'does not exist'}`);
  const { readFile } = await import('node:fs/promises');
  const held = readBackResults(JSON.parse(await readFile(path, 'utf8')));
  if (!held.ok) fail(`${path} ${held.reason}`);
  return held.value;
}

function runLine(label: string, path: string, r: ConformanceResults): string {
  const t: Record<string, number> = {};
  for (const c of r.checks) t[c.status] = (t[c.status] ?? 0) + 1;
  return `${label} ${terminalText(path, { max: 300 })}: ${r.target.name} ${terminalText(r.target.apiBaseUrl, { max: 300 })}, started ${r.startedAt}, exit ${r.exitCode}; ${t.passed ?? 0} passed, ${t.failed ?? 0} failed, ${t.skipped ?? 0} skipped${r.scope.selection ? `; ${terminalText(r.scope.selection, { max: 300 })}` : ''}`;
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      options: { help: { type: 'boolean', short: 'h', default: false } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    fail(`${firstLine(error)}\n${USAGE}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const [a, b, ...more] = parsed.positionals;
  if (!a || !b || more.length) fail(`give two results files\n${USAGE}`);
  const before = await results(a);
  const after = await results(b);
  const lines = [runLine('A', a, before), runLine('B', b, after)];
  const other = notComparable(before, after);
  if (other) lines.push(`note: the runs ${other}: the differences may be the servers', not time's`);
  const { changes } = diffRuns(before, after);
  lines.push('');
  if (changes.length === 0) lines.push('no check changed status');
  for (const c of changes) {
    lines.push(`${c.id.padEnd(28)} ${c.from} -> ${c.to}  (${c.area}) ${terminalText(c.title, { max: 200 })}`);
  }
  const newlyFailing = changes.filter((c) => c.to === 'failed').length;
  lines.push('', `${changes.length} changed, ${newlyFailing} newly failing`);
  process.stdout.write(`${lines.join('\n')}\n`);
  await exitAfterOutput(newlyFailing > 0 ? 1 : 0);
}

main().catch((error: unknown) => fail(firstLine(error)));
