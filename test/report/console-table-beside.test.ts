// npm test runs the checks beside the self-tests: the conformance table must not end on an exit
// code the command will not have (it read "exit code 0" above failed self-tests).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConsoleTable } from '../../src/report/console-table.ts';
import { fixtureResults } from './fixture.ts';

describe('the conformance table beside the self-tests', () => {
  it('names no exit code of its own, and points at the closing line', () => {
    const results = fixtureResults();
    const alone = renderConsoleTable(results, []);
    const beside = renderConsoleTable(results, [], 'self-tests');
    expect(alone).toMatch(/^exit code \d/m);
    expect(beside).not.toMatch(/^exit code/m);
    expect(beside).toContain(`the conformance checks alone would exit ${results.exitCode}`);
    expect(beside).toContain("this command's result is the closing line below");
  });

  it('is followed by the closing line: its reporter is the last one', () => {
    const config = readFileSync(new URL('../../vitest.config.ts', import.meta.url), 'utf8');
    const reporters = /reporters: \[([\s\S]*?)\]/.exec(config)?.[1] ?? '';
    const named = [...reporters.matchAll(/^\s*'([^']+)',/gm)].map((m) => m[1]);
    expect(named.at(-1)).toBe('./src/runner/closing-line-reporter.ts');
  });
});
