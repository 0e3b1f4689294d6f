// Text from the target (and from the reports folder) is read in linear time, by construction: each
// function that reads such text is fed its worst case at 1 MiB here, under a budget only a
// quadratic pass misses, and a scan of the source finds any new regular expression of the shape
// that backtracks quadratically (a quantified run anchored only at its end, like /\/+$/, which
// took 5.4 s on one 60,000-slash path) before it reaches the target's text.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { accessTokenProblem } from '../../common/access-token.ts';
import { errorBodyProblems, errorCode } from '../../common/error-body.ts';
import { normalizeHost } from '../../common/host.ts';
import { isJsonMediaType } from '../../common/media-type.ts';
import { originOf } from '../../common/origin.ts';
import { retryAfterSeconds } from '../../common/retry-after.ts';
import { htmlText, jsonText, markdownText, terminalText, xmlText } from '../../common/safe-text.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
import { isIsoDateTime, namesRoute } from '../../src/checks/invariants.ts';
import { cutBody, wasCut } from '../../src/client/recorder.ts';

const MIB = 1024 * 1024;
const run = (unit: string, tail = 'x') => unit.repeat(Math.ceil(MIB / unit.length)) + tail;

// Each function of target text with the inputs that would make a backtracking pattern quadratic.
const READERS: [string, (text: string) => unknown][] = [
  ['namesRoute', (t) => namesRoute(t, '/v1/customers')],
  ['trimTrailingSlashes', trimTrailingSlashes],
  ['isJsonMediaType', isJsonMediaType],
  ['isIsoDateTime', isIsoDateTime],
  ['normalizeHost', normalizeHost],
  ['originOf', originOf],
  ['retryAfterSeconds', (t) => retryAfterSeconds(t, Date.now())],
  ['accessTokenProblem', accessTokenProblem],
  ['errorCode of a parsed body', (t) => errorCode({ code: t })],
  ['errorBodyProblems', (t) => errorBodyProblems({ message: t, path: t }, 404)],
  ['terminalText', (t) => terminalText(t, { max: 300 })],
  ['terminalText (lines)', (t) => terminalText(t, { lines: true })],
  ['markdownText', markdownText],
  ['htmlText', htmlText],
  ['xmlText', xmlText],
  ['jsonText', jsonText],
  ['wasCut', wasCut],
  ['cutBody', (t) => cutBody(`${t}... [truncated, ${t} characters in all]`, 1024)],
];
// The runs that make backtracking patterns quadratic: slashes, blanks, colons, digits, escapes.
const WORST = ['/', ' \t\n', '::', '\\`', '1.', '\u200b\ud800', '... [truncated, 1'];

// A linear pass over 1 MiB takes at most 1.5 s here (escaping every character of a run of
// invisible ones), 15 s at load 30; a quadratic one takes about half an hour (/\/+$/ took 5.4 s on
// 60,000 slashes, and 1 MiB is 17 times longer): the budget tells them apart on any machine. At
// 5 MiB a linear pass missed a 60 s budget at load 30.
describe('linear time on 1 MiB of target text', { timeout: 600_000 }, () => {
  it.each(READERS)('%s', (_name, read) => {
    for (const unit of WORST) {
      const text = run(unit);
      const started = performance.now();
      read(text);
      const ms = performance.now() - started;
      expect(ms, `${JSON.stringify(unit)} x 1 MiB`).toBeLessThan(60_000);
    }
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every regular-expression literal of a file, as written between its slashes. */
function regexLiterals(file: string): { pattern: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { pattern: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(source);
      found.push({
        pattern: text.slice(1, text.lastIndexOf('/')),
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// One quantified atom anchored only at the end (/\/+$/, /\s+$/, /[ \t]*$/): V8 retries the run from
// each of its characters, so a long run that does not end the text costs its length squared.
const QUADRATIC = /^(?:\\.|\[[^\]]*\]|[^\\[(^])(?:[+*]|\{\d+,\})\$$/;

// Parsing every source file takes 5 s here idle, 24 s at a load of 35: the self project's 20 s
// per test failed it on a newcomer's fresh clone. Only a hang outlasts this.
describe('no regular expression of the quadratic shape', { timeout: 300_000 }, () => {
  it('finds it in a written example', () => {
    expect(QUADRATIC.test('\\/+$')).toBe(true);
    expect(QUADRATIC.test('\\s*$')).toBe(true);
    expect(QUADRATIC.test('^\\/+$')).toBe(false);
    expect(QUADRATIC.test('\\/[^/]+$')).toBe(false);
  });

  it('has none in the suite, the shared room or the k6 scripts (write a loop, as trimTrailingSlashes does)', () => {
    const root = join(import.meta.dirname, '../..');
    const literals = ['src', 'common', 'load', 'suites']
      .flatMap((d) => sources(join(root, d)))
      .filter((file) => !file.includes('/src/reference/'))
      .flatMap((file) => regexLiterals(file).map((r) => ({ ...r, file: relative(root, file) })));
    expect(literals.length, 'the scan reads the regular expressions').toBeGreaterThan(100);
    const found = literals
      .filter(({ pattern }) => QUADRATIC.test(pattern))
      .map(({ pattern, line, file }) => `${file}:${line}: /${pattern}/`);
    expect(found).toEqual([]);
  });
});
