// Before the first request: can the reports be written where they are to go? A run that learns at
// its end that it cannot write has wasted the target's time and tells nobody; so the folder is
// created and a probe file written first, and any problem is one line naming the folder and why.
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { firstLine } from '../client/errors.ts';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOENT: 'that place cannot hold a folder',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const known = code ? REASONS[code] : undefined;
  if (known) return `${known} (${code})`;
  return code ?? (firstLine(error) || String(error));
}

/** The nearest part of the path that exists, and what it is. */
async function nearestExisting(path: string): Promise<{ path: string; isDirectory: boolean }> {
  let current = path;
  for (;;) {
    try {
      const info = await stat(current);
      return { path: current, isDirectory: info.isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') {
        // A file sits somewhere above: keep climbing to name it.
      } else if (code !== 'ENOENT') throw error;
      const parent = dirname(current);
      if (parent === current) throw error;
      current = parent;
    }
  }
}

/** Creates the folder level by level (Node's recursive mkdir loops for ever under /proc). */
async function createFolder(absolute: string): Promise<string | undefined> {
  const existing = await nearestExisting(absolute);
  if (!existing.isDirectory) {
    return existing.path === absolute
      ? 'is a file, not a folder'
      : `cannot be created: ${existing.path} is a file, not a folder`;
  }
  const missing: string[] = [];
  for (let p = absolute; p !== existing.path; p = dirname(p)) missing.unshift(p);
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot be created: ${reasonOf(error)}`;
    }
  }
  return undefined;
}

/** Creates the folder if need be; throws one line naming it and the reason. */
export async function makeFolder(dir: string): Promise<void> {
  const absolute = resolve(dir);
  const problem = await createFolder(absolute).catch(
    (error: unknown) => `cannot be used: ${reasonOf(error)}`,
  );
  if (problem) throw new Error(`the reports folder ${absolute} ${problem}`);
}

/** Creates the folder and writes a probe file: the problem as one line, or undefined. */
async function tryFolder(dir: string): Promise<string | undefined> {
  const absolute = resolve(dir);
  const problem = await createFolder(absolute);
  if (problem) return problem;
  const probe = resolve(absolute, `.write-probe.${process.pid}`);
  try {
    await writeFile(probe, 'probe\n', { flush: true });
  } catch (error) {
    return `is not writable: ${reasonOf(error)}`;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
  return undefined;
}

export const CHECK_TIMEOUT_MS = 5000;

/** One line naming the folder and the reason it cannot take the reports, or undefined. */
export async function reportsDirProblem(
  dir: string,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  // A hung file system (a dead network mount) must not hang the run: give up after a while.
  const timeout = new Promise<string>((done) => {
    timer = setTimeout(() => done(`did not answer within ${timeoutMs / 1000} s`), timeoutMs);
    timer.unref();
  });
  const problem = await Promise.race([
    tryFolder(dir).catch((error: unknown) => `cannot be used: ${reasonOf(error)}`),
    timeout,
  ]);
  clearTimeout(timer);
  return problem === undefined ? undefined : `the reports folder ${resolve(dir)} ${problem}`;
}
