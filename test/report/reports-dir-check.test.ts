// The reports folder is checked before the first request: each way it can be unusable gives one
// line naming the folder and the reason, and none hangs (Node's recursive mkdir loops for ever
// under /proc, which is why the folder is created level by level).
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder, reportsDirProblem } from '../../src/report/reports-dir-check.ts';

const root = mkdtempSync(join(tmpdir(), 'reports-dir-check-'));
afterAll(() => {
  chmodSync(root, 0o755);
  rmSync(root, { recursive: true, force: true });
});

const isRoot = process.getuid?.() === 0;

describe('reportsDirProblem', () => {
  it('creates missing levels and leaves no probe behind', async () => {
    const dir = join(root, 'a', 'b', 'c');
    expect(await reportsDirProblem(dir)).toBeUndefined();
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(existsSync('/proc/self'))(
    'a folder under /proc cannot be created: one line, no hang',
    async () => {
      const problem = await reportsDirProblem('/proc/nope');
      expect(problem).toBe(
        'the reports folder /proc/nope cannot be created: that place cannot hold a folder (ENOENT)',
      );
    },
  );

  it('a file where a folder of the path should be', async () => {
    const file = join(root, 'hostname');
    writeFileSync(file, 'x');
    expect(await reportsDirProblem(join(file, 'x', 'y'))).toBe(
      `the reports folder ${file}/x/y cannot be created: ${file} is a file, not a folder`,
    );
  });

  it('the folder itself is a file', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    expect(await reportsDirProblem(file)).toBe(`the reports folder ${file} is a file, not a folder`);
  });

  it('a folder the run may not write to', async () => {
    // root writes anywhere its permissions say no; /sys refuses even root.
    const dir = isRoot ? '/sys/kernel' : join(root, 'read-only');
    if (!isRoot) {
      await makeFolder(dir);
      chmodSync(dir, 0o555);
    }
    const problem = await reportsDirProblem(dir);
    expect(problem).toMatch(
      new RegExp(`^the reports folder ${dir} is not writable: .*\\((EACCES|EPERM|EROFS)\\)$`),
    );
  });

  it('a folder that cannot be created under a parent the run may not write to', async () => {
    const dir = isRoot ? '/sys/kernel/reports' : join(root, 'read-only', 'reports');
    expect(await reportsDirProblem(dir)).toMatch(
      new RegExp(`^the reports folder ${dir} cannot be created: .*\\((EACCES|EPERM|EROFS|ENOENT)\\)$`),
    );
  });
});

describe('makeFolder', () => {
  it('throws the same one line', async () => {
    await expect(makeFolder('/proc/nope/reports')).rejects.toThrow(
      /^the reports folder \/proc\/nope\/reports cannot be created: /,
    );
  });
});
