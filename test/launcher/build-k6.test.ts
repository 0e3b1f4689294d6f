// `npm run load:*` builds the pinned k6 when none is found and Go is there, as `npm test`'s pretest
// does (before: exit 2 with the install hint, k6 never built). Go and k6 are stand-ins: a `go` that
// records its arguments and "installs" a recording k6 into GOBIN; nothing is downloaded.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { K6_VERSION } from '../../src/launcher/find-k6.ts';
import { fakeK6, runLoadCli } from '../load/cli-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function fakeGo(k6Source: string): { dir: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-go-'));
  const log = join(dir, 'go-args');
  const go = join(dir, 'go');
  writeFileSync(
    go,
    [
      '#!/bin/sh',
      `if [ "$1" = env ]; then echo '${join(dir, 'gopath')}'; exit 0; fi`,
      `if [ "$1" = install ]; then printf '%s\\n' "$@" > '${log}'; cp '${k6Source}' "$GOBIN/k6"; chmod +x "$GOBIN/k6"; exit 0; fi`,
      'exit 1',
      '',
    ].join('\n'),
  );
  chmodSync(go, 0o755);
  return { dir, log };
}

describe('npm run load:* without k6', () => {
  it('builds the pinned k6 with Go into the project folder, then runs it', async () => {
    const k6 = fakeK6();
    const go = fakeGo(join(k6.dir, 'k6'));
    const project = mkdtempSync(join(tmpdir(), 'project-k6-'));
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    const reports = mkdtempSync(join(tmpdir(), 'build-k6-reports-'));
    dirs.push(k6.dir, go.dir, project, home, reports);
    const run = await runLoadCli(['release'], {
      // No k6 anywhere findK6 looks: not on PATH, not in the project folder, not under Go's or HOME's.
      PATH: [go.dir, dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      K6_PROJECT_DIR: project,
      HOME: home,
      K6_REPORT_DIR: reports,
    });
    expect(run.stderr).toContain(
      `load: k6 not found: building k6 ${K6_VERSION} with Go into ${project} (about a minute with Go's caches warm, several on a first build; once)`,
    );
    expect(readFileSync(go.log, 'utf8').split('\n')).toEqual(['install', `go.k6.io/k6@${K6_VERSION}`, '']);
    expect(existsSync(join(project, 'k6'))).toBe(true);
    // The built k6 was the one run.
    expect(readFileSync(k6.argvFile, 'utf8').split('\n')[0]).toBe('run');
  }, 120_000);

  it('without Go says how to install k6 (exit 2)', async () => {
    const project = mkdtempSync(join(tmpdir(), 'project-k6-'));
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    dirs.push(project, home);
    const bin = mkdtempSync(join(tmpdir(), 'bin-'));
    dirs.push(bin);
    const run = await runLoadCli(['release'], {
      PATH: [dirname(process.execPath), '/usr/bin', '/bin']
        .filter((d) => !existsSync(join(d, 'go')))
        .join(':'),
      K6_PROJECT_DIR: project,
      HOME: home,
      K6_REPORT_DIR: bin,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^load: k6 is not installed: run `go install go\.k6\.io\/k6@/m);
  }, 120_000);
});
