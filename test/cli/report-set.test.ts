// A report is a run's, whole or marked (issue 33): a conformance run writes its report set only
// once it has a verdict, all of it at once (src/report/write-reports.ts). A run that dies before its
// verdict (a configuration error, exit 2; killed outright) leaves the last run's set byte for byte;
// a run that finishes replaces the set whole, no file of the last run left beside its own. Before,
// the reporter moved results.json aside and deleted summary.md, index.html and junit.xml as the
// checks started, so a killed run left a folder with no report at all.

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { fixtureResults } from '../report/fixture.ts';
import { reportsProblems, startCli, targetEnv } from './conformance-child.ts';

let server: RunningReferenceServer;
let root: string;
beforeAll(async () => {
  server = await startReferenceServer({ control: true, latencyMs: 200 });
  root = mkdtempSync(join(tmpdir(), 'report-set-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

const PLANTED_HAR = '{"log":{"version":"1.2","entries":[],"comment":"the last run"}}\n';

/** A folder holding a whole report set of an earlier run (and that run's CI HAR); its files. */
async function planted(name: string): Promise<{ dir: string; files: Map<string, string> }> {
  const dir = join(root, name);
  mkdirSync(dir);
  await writeReports(dir, fixtureResults(), createSecretFilter([]));
  await writeReports(dir, fixtureResults(), createSecretFilter([]));
  writeFileSync(join(dir, 'run.har'), PLANTED_HAR);
  return { dir, files: filesOf(dir) };
}

/** Each file's SHA-256 (byte for byte; deep-equal over Buffers of 100 KB took a minute here). */
function filesOf(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.conformance-run.lock'))
      .map((e) => [
        e.name,
        createHash('sha256')
          .update(readFileSync(join(dir, e.name)))
          .digest('hex'),
      ]),
  );
}

/** The run's environment: no CI (no default HAR), nothing of this process's configuration. */
function envOf(dir: string): NodeJS.ProcessEnv {
  const env = targetEnv(server, dir);
  delete env.CI;
  return env;
}

describe('a run that dies before its verdict leaves the last report set as it was', () => {
  it('a configuration error in .env (exit 2): every file byte for byte', async () => {
    const { dir, files } = await planted('config-error');
    const cwd = join(root, 'config-error-cwd');
    mkdirSync(cwd);
    writeFileSync(join(cwd, '.env'), 'CONFORMANCE_STRICT=perhaps\n');
    const env = envOf(dir);
    delete env.CONFORMANCE_STRICT;
    const run = startCli(['--area', 'user'], env, cwd);
    const { code, output } = await run.done;
    expect(code, output).toBe(2);
    expect(output).toContain('CONFORMANCE_STRICT');
    expect(filesOf(dir)).toEqual(files);
  }, 60_000);

  it('killed outright while its checks run (SIGKILL): every file byte for byte', async () => {
    const { dir, files } = await planted('killed');
    const run = startCli(['--area', 'errors', '--area', 'user'], envOf(dir));
    // Past vitest's start (RUN), then two of the checks' requests: the checks are under way.
    while (!/\bRUN\b/.test(run.output()) && !run.exited()) await new Promise((r) => setTimeout(r, 20));
    const before = server.control.requestCounts().total;
    while (server.control.requestCounts().total < before + 2 && !run.exited()) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(run.exited(), run.output()).toBe(false);
    run.child.kill('SIGKILL');
    const { signal } = await run.done;
    expect(signal).toBe('SIGKILL');
    // A hidden temporary file may be left by a kill; the reports are the last run's, every byte.
    const after = filesOf(dir);
    for (const name of after.keys()) if (name.endsWith('.tmp')) after.delete(name);
    expect(after).toEqual(files);
  }, 120_000);
});

describe('a run that ends with a verdict replaces the set whole', () => {
  it('every report is this run`s; the last results.json is previous-results.json; the last HAR goes', async () => {
    const { dir, files } = await planted('replaced');
    const run = startCli(['--area', 'user'], envOf(dir));
    const { code, output } = await run.done;
    expect(code, output).toBe(0);
    const after = filesOf(dir);
    expect([...after.keys()].sort()).toEqual(
      ['index.html', 'junit.xml', 'previous-results.json', 'results.json', 'summary.md'].sort(),
    );
    expect(reportsProblems(dir)).toEqual([]);
    // The set aside results are the last run's, byte for byte; every other file is new.
    expect(after.get('previous-results.json')).toBe(files.get('results.json'));
    for (const name of ['results.json', 'summary.md', 'index.html', 'junit.xml']) {
      expect(after.get(name), name).not.toBe(files.get(name));
    }
    // Each names this run: its start, not the planted run's.
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    const last = JSON.parse(readFileSync(join(dir, 'previous-results.json'), 'utf8'));
    expect(results.startedAt).not.toBe(last.startedAt);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`started ${results.startedAt}`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});
