// Each way a conformance run can be interrupted, end to end, with what it prints and leaves: SIGINT
// and SIGTERM mid-run write every report with the finished checks' outcomes and the rest "not run
// (interrupted)", the verdict and exit code say interrupted (130, 143); a second Ctrl-C ends at
// once. The folder starts with a cut-short results.json, which the history ignores, saying so.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { NOT_RUN_REASON } from '../../src/report/outcome.ts';
import { ROOT } from '../support/run-node.ts';
import { reportsProblems, startCli, targetEnv } from './conformance-child.ts';

let slow: RunningReferenceServer;
let verySlow: RunningReferenceServer;
let root: string;
beforeAll(async () => {
  slow = await startReferenceServer({ control: true, latencyMs: 300 });
  // Every request outlasts the wait before the second Ctrl-C.
  verySlow = await startReferenceServer({ control: true, latencyMs: 2500 });
  root = mkdtempSync(join(tmpdir(), 'interrupt-endings-'));
});
afterAll(async () => {
  await slow?.close();
  await verySlow?.close();
  rmSync(root, { recursive: true, force: true });
});

const CUT_SHORT = '{"tool":{"name":"payments-crm-conformance"},"startedAt":"2026-11-';

/** Starts a run on a folder holding a cut-short results.json; resolves once its checks have begun. */
async function startedRun(name: string, server: RunningReferenceServer) {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, 'results.json'), CUT_SHORT);
  const run = startCli(['--area', 'errors', '--area', 'user'], targetEnv(server, dir));
  // vitest says RUN as the run begins (the last reports stay in place until the verdict); then the
  // checks' requests come.
  while (!/\bRUN\b/.test(run.output()) && !run.exited()) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const before = server.control.requestCounts().total;
  while (server.control.requestCounts().total < before + 2 && !run.exited()) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return { dir, run };
}

function conformanceLines(output: string): string[] {
  return output.split('\n').filter((l) => /^conformance( reporter)?:/.test(l.trim()));
}

describe.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('%s while the checks run', (signal, exitCode) => {
  it(`exit ${exitCode}; every report written, finished checks kept, the rest not run`, async () => {
    const { dir, run } = await startedRun(signal, slow);
    run.child.kill(signal);
    const { code, output } = await run.done;
    expect(code, output).toBe(exitCode);
    const lines = conformanceLines(output);
    expect(lines[0]).toBe(
      `conformance: interrupted (${signal}): stopping; the checks in flight get 2 s, then the reports are written (Ctrl-C again to end at once)`,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/results\.json does not parse \(.*\): this run has no history$/),
    );

    // The cut-short file the run found stays as it was, set aside as the previous results.
    expect(reportsProblems(dir).filter((p) => !p.startsWith('previous-results.json'))).toEqual([]);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.exitCode).toBe(exitCode);
    expect(results.history).toBeUndefined();
    expect(results.problems[0]).toMatch(new RegExp(`^interrupted \\(${signal}`));
    const notRun = results.checks.filter((c: { reason?: string }) => c.reason === NOT_RUN_REASON);
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun.every((c: { status: string }) => c.status === 'skipped')).toBe(true);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toMatch(
      new RegExp(`^# Conformance of \`staging\`: Interrupted \\(${signal}\\): \\d+ of \\d+ checks finished`),
    );
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain(`Interrupted (${signal})`);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(dir, 'junit.xml'), 'utf8'),
    );
    expect(JSON.stringify(junit)).toContain(`interrupted (${signal}`);
  }, 120_000);
});

describe('Ctrl-C in a terminal running npm run conformance', () => {
  // The terminal signals the whole process group: npm, and the CLI, which also gets npm's copy.
  it('one keypress is one interrupt: ended by SIGINT (130), every report written', async () => {
    const dir = join(root, 'npm');
    mkdirSync(dir);
    const child = spawn(
      'npm',
      ['run', '--silent', 'conformance', '--', '--area', 'errors', '--area', 'user'],
      {
        cwd: ROOT,
        env: targetEnv(slow, dir),
        detached: true,
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const done = new Promise<string>((resolve) =>
      child.on('close', (code, signal) => resolve(`${code ?? signal}`)),
    );
    const before = slow.control.requestCounts().total;
    // Past the set-up: the checks' requests have begun.
    while (slow.control.requestCounts().total < before + 4 && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 20));
    }
    process.kill(-(child.pid ?? 0), 'SIGINT');
    // npm ends the way its script did; on a signal it re-raises it, which the shell reports as 130.
    expect(['130', 'SIGINT'], output).toContain(await done);
    expect(conformanceLines(output).filter((l) => l.includes('SIGINT again'))).toEqual([]);
    expect(reportsProblems(dir)).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).exitCode).toBe(130);
  }, 120_000);
});

describe('Ctrl-C twice', () => {
  // vitest aborts the checks in flight at once, so the first Ctrl-C usually has its reports written
  // before a person could press the second; test/runner/interrupts.test.ts holds a run that does not
  // end to show the second one ending it at once. Here: whichever comes first, nothing is half-done.
  it('exit 130, every report there complete, no temporary file left', async () => {
    const { dir, run } = await startedRun('twice', verySlow);
    run.child.kill('SIGINT');
    // Past the window in which a relayed copy of the first one is ignored.
    await new Promise((r) => setTimeout(r, 550));
    if (!run.exited()) run.child.kill('SIGINT');
    const { code, output } = await run.done;
    expect(code, output).toBe(130);
    // Either this run's reports were written before the second one, or the folder is as the run
    // found it: its cut-short results.json byte for byte, nothing else (issue 33).
    const results = readFileSync(join(dir, 'results.json'), 'utf8');
    if (results === CUT_SHORT)
      expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual(['results.json']);
    else expect(reportsProblems(dir).filter((p) => !p.startsWith('previous-results.json'))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});

describe('before any check', () => {
  it('a signal while the run is being set up ends it at once with 130 and the last reports untouched', async () => {
    const dir = join(root, 'early');
    mkdirSync(dir);
    writeFileSync(join(dir, 'results.json'), CUT_SHORT);
    const run = startCli([], targetEnv(slow, dir));
    // The CLI has taken the folder's lock: it is past loading, not yet running checks.
    while (!readdirSync(dir).includes('.conformance-run.lock') && !run.exited()) {
      await new Promise((r) => setTimeout(r, 5));
    }
    run.child.kill('SIGINT');
    const { code, output } = await run.done;
    expect(code, output).toBe(130);
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe(CUT_SHORT);
    expect(conformanceLines(output).at(-1)).toBe(
      'conformance: interrupted (SIGINT) before any check ran; no report written',
    );
  }, 60_000);
});
