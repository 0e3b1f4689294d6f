// `npm run conformance` with a reports folder it cannot use: exit 2 and one line naming the folder
// and the reason, before the first request reaches the target, and never a hang. Two runs started
// at once on the same folder: one runs and reports, the other refuses at once with one line.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { LOCK_FILE } from '../../src/report/run-lock.ts';
import { reportsProblems, startCli, statedResults, targetEnv } from './conformance-child.ts';

let server: RunningReferenceServer;
let root: string;

beforeAll(async () => {
  // Slow enough that the first of two runs started together still holds the folder when the
  // second asks for it.
  server = await startReferenceServer({ control: true, latencyMs: 100 });
  root = mkdtempSync(join(tmpdir(), 'reports-folder-'));
  writeFileSync(join(root, 'a-file'), 'not a folder');
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

const isRoot = process.getuid?.() === 0;

describe('an unusable reports folder stops the run before any request', () => {
  const cases: [string, () => string, RegExp][] = [
    ['not creatable (under /proc)', () => '/proc/nope', /cannot be created: .*\(ENOENT\)/],
    [
      'a file in its path',
      () => join(root, 'a-file', 'x'),
      /cannot be created: .*a-file is a file, not a folder/,
    ],
    ['a file, not a folder', () => join(root, 'a-file'), /is a file, not a folder/],
    // root may write anywhere its permissions forbid; /sys refuses even root.
    [
      'not writable',
      () => (isRoot ? '/sys/kernel' : '/'),
      /(is not writable|cannot be created): .*\((EACCES|EPERM|EROFS)\)/,
    ],
  ];
  it.each(cases)(
    '%s: exit 2, one line naming the folder',
    async (_name, dirOf, reason) => {
      const dir = dirOf();
      server.control.resetCounts();
      const run = startCli([], targetEnv(server, dir));
      const { code, output } = await run.done;
      const lines = output.trim().split('\n');
      expect(code, output).toBe(2);
      expect(lines, output).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^conformance: the reports folder ${dir} `));
      expect(lines[0]).toMatch(reason);
      expect(server.control.requestCounts().total).toBe(0);
    },
    60_000,
  );

  it.runIf(process.platform === 'linux')(
    'the local target too (the embedded server is never started)',
    async () => {
      const env = {
        ...process.env,
        CONFORMANCE_TARGET: 'local',
        CONFORMANCE_REPORTS_DIR: '/proc/nope',
        NO_COLOR: '1',
      };
      const { code, output } = await startCli([], env).done;
      expect(code, output).toBe(2);
      expect(output.trim()).toBe(
        'conformance: the reports folder /proc/nope cannot be created: that place cannot hold a folder (ENOENT)',
      );
    },
    60_000,
  );
});

describe('two runs started at once on the same reports folder', () => {
  it('one reports its own run; the other refuses at once with one line; nothing is mixed', async () => {
    const dir = join(root, 'shared');
    const env = targetEnv(server, dir);
    const runs = [startCli(['--area', 'user'], env), startCli(['--area', 'user'], env)];
    const ended = await Promise.all(runs.map((r) => r.done));
    const refused = ended.filter((e) => e.code === 2);
    const ran = ended.filter((e) => e.code === 0);
    const outputs = ended.map((e) => e.output).join('\n----\n');
    expect(ran, outputs).toHaveLength(1);
    expect(refused, outputs).toHaveLength(1);
    const line = refused[0]?.output.trim() ?? '';
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(
      new RegExp(
        `^conformance: another conformance run \\(process \\d+, started [^)]+\\) is writing to ${dir}; `,
      ),
    );
    // The folder holds the one run's reports, complete, with no history from the other.
    expect(reportsProblems(dir)).toEqual([]);
    const results = statedResults(dir) as { exitCode: number; history?: unknown } | undefined;
    expect(results?.exitCode).toBe(0);
    expect(results?.history).toBeUndefined();
    // (run.har: the run's traffic, written by default where CI is set; the HAR tests judge it)
    expect(
      readdirSync(dir)
        .filter((f) => f !== 'run.har')
        .sort(),
    ).toEqual(['index.html', 'junit.xml', 'results.json', 'summary.md']);
    expect(readdirSync(dir)).not.toContain(LOCK_FILE);
  }, 120_000);
});
