// The file-system errors a test machine cannot produce on demand (a read-only or full file system,
// a mount that no longer answers), injected into node:fs/promises: one line each, and no hang.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const failure: { writeCode?: string; statHangs?: boolean } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    writeFile: (async (...args: Parameters<typeof real.writeFile>) => {
      if (failure.writeCode)
        throw Object.assign(new Error(`${failure.writeCode}: injected`), { code: failure.writeCode });
      return real.writeFile(...args);
    }) as typeof real.writeFile,
    stat: ((...args: Parameters<typeof real.stat>) =>
      failure.statHangs ? new Promise(() => undefined) : real.stat(...args)) as typeof real.stat,
  };
});

const { reportsDirProblem } = await import('../../src/report/reports-dir-check.ts');

const root = mkdtempSync(join(tmpdir(), 'reports-dir-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  failure.writeCode = undefined;
  failure.statHangs = false;
});

describe('reportsDirProblem with injected file-system errors', () => {
  it.each([
    ['EROFS', 'read-only file system (EROFS)'],
    ['ENOSPC', 'no space left on the device (ENOSPC)'],
    ['EDQUOT', 'disk quota exceeded (EDQUOT)'],
  ])('%s: one line naming the folder', async (code, reason) => {
    failure.writeCode = code;
    expect(await reportsDirProblem(root)).toBe(`the reports folder ${root} is not writable: ${reason}`);
  });

  it('a file system that does not answer: given up on, not waited for', async () => {
    failure.statHangs = true;
    expect(await reportsDirProblem(root, 50)).toBe(`the reports folder ${root} did not answer within 0.05 s`);
  });
});
