// The commands a report prints are the commands the one curl renderer built (src/client/curl.ts),
// never edited after: console, summary.md, index.html and junit.xml each show them whole or say
// they cannot, and each one, pasted into a shell, runs curl and nothing else. summary.md used to
// rewrite backticks to ' inside its curl lines, which turned a quoted $(...) into a live one. And
// the target's words in every sink: no escape sequence, no workflow command on the console.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonText, printableCommand } from '../../common/safe-text.ts';
import { curlOf } from '../../src/client/curl.ts';
import type { RecordedExchange } from '../../src/client/index.ts';
import { renderConsoleTable } from '../../src/report/console-table.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { buildResults } from '../../src/report/results.ts';
import { renderSummary } from '../../src/report/summary-md.ts';
import type { CheckResult } from '../../src/report/types.ts';
import { fixtureInput } from './fixture.ts';

const base: RecordedExchange = {
  method: 'GET',
  url: 'http://127.0.0.1:4010/api/v1/customers',
  requestHeaders: { accept: 'application/json' },
  status: 500,
  startedAt: '2026-01-05T10:00:01.000Z',
  durationMs: 3,
};

// A query keeps backticks and $() as they are (the URL standard does not encode them there).
const HOSTILE: RecordedExchange[] = [
  {
    ...base,
    url: 'http://127.0.0.1:4010/api/v1/customers?q=`touch%20/tmp/x`&r=$(touch /tmp/sinks-cmd-subst)',
  },
  { ...base, method: 'POST', requestBody: `{"name":"o'neil \`id\` $(touch /tmp/sinks-cmd-body) \\"q\\""}` },
  { ...base, method: 'POST', requestBody: 'line one\n::error::two' },
  { ...base, method: 'POST', requestBody: 'escape \u001b]52;c;eA==\u0007' },
];

const checks: CheckResult[] = HOSTILE.map((x, i) => ({
  id: `CMD-${i}`,
  title: 'a request a hostile target made us send',
  area: 'customers-pagination',
  rules: ['PAG-03'],
  level: 'MUST',
  status: 'failed',
  reason: 'failed',
  failedExchange: 0,
  durationMs: 1,
  exchanges: [x],
}));
const results = buildResults(fixtureInput({ checks }));

const unescapeMarkup = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');

function printed(): Record<string, string[]> {
  const lines = (text: string) => [...text.matchAll(/reproduce with: (.*)$/gm)].map((m) => m[1] ?? '');
  return {
    console: lines(renderConsoleTable(results, [])),
    junit: lines(unescapeMarkup(renderJunit(results).replace(/<\/failure>/g, '\n'))),
    summary: [...renderSummary(results).matchAll(/^ *(`{3,})sh\n *(.*)\n *\1$/gm)].map((m) => m[2] ?? ''),
    html: [...renderHtml(results).matchAll(/<pre class="reproduce">([^<]*)<\/pre>/g)].map((m) =>
      unescapeMarkup(m[1] ?? ''),
    ),
  };
}

const bin = mkdtempSync(join(tmpdir(), 'fake-curl-'));
writeFileSync(join(bin, 'curl'), '#!/bin/bash\necho curl ran\n', { mode: 0o755 });
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('the commands the reports print', () => {
  // A body with a line break or an escape is written by printf from octal escapes (curl.ts): every
  // command stays one printable line, so no sink has to withhold one.
  const expected = HOSTILE.map(curlOf);

  it.each(['console', 'junit', 'summary', 'html'])(
    "%s: the renderer's commands, whole and unedited",
    (sink) => {
      expect(printed()[sink]).toEqual(expected);
    },
  );

  it('each runs curl (and printf, a shell builtin) and nothing else', () => {
    for (const command of expected) {
      expect(spawnSync('/bin/bash', ['-n', '-c', command]).status, command).toBe(0);
      const run = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', command], {
        encoding: 'utf8',
        env: { PATH: bin, HOME: bin },
      });
      expect(run.stdout + run.stderr, command).toBe('curl ran\n');
    }
  });

  it('a command that is not one printable line would be withheld, never edited', () => {
    expect(printableCommand("curl --data-raw 'a\nb'")).toBeUndefined();
    for (const command of expected) expect(printableCommand(command)).toBe(command);
  });
});

describe('what the reports print of the target', () => {
  const WORDS =
    '\u001b]52;c;ZXZpbA==\u0007 \u001b]8;;http://127.0.0.9/\u001b\\link\u001b]8;;\u001b\\ \u009b31m\n::add-mask::exit\n##[error]x';
  const hostile: CheckResult = {
    ...(checks[0] as CheckResult),
    id: 'WORDS',
    reason: `got 500: ${WORDS}`,
    exchanges: [{ ...base, responseHeaders: { 'x-echo': WORDS }, responseBody: WORDS }],
  };
  const soft: CheckResult = { ...hostile, id: 'SOFT', level: 'SHOULD', nonStrict: true };
  const withWords = buildResults(fixtureInput({ checks: [hostile, soft], problems: [`problem: ${WORDS}`] }));
  const outputs = {
    console: renderConsoleTable(withWords, []),
    'summary.md': renderSummary(withWords),
    'index.html': renderHtml(withWords),
    'junit.xml': renderJunit(withWords),
    'results.json': jsonText(withWords, 2),
  };

  it.each(Object.keys(outputs))('%s: no escape or C1 character', (name) => {
    const text = outputs[name as keyof typeof outputs];
    expect(text.includes('\u001b')).toBe(false);
    expect(text.includes('\u009b')).toBe(false);
  });

  it('the console has no line the Actions runner would obey', () => {
    expect(outputs.console.match(/^\s*(::|##\[).*$/gm) ?? []).toEqual([]);
    expect(outputs.console).toContain('\\x1b]52;c;ZXZpbA==\\x07');
  });
});
