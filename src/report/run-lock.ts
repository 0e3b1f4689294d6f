// One run at a time per reports folder. Two runs writing the same folder would rotate each other's
// results into the history and interleave their files; so a run takes a lock file in the folder
// before its first request, and a second run refuses at once with one line naming the first. A lock
// left by a run that died (its process is gone) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { firstLine } from '../client/errors.ts';

export const LOCK_FILE = '.conformance-run.lock';

interface Holder {
  pid: number;
  startedAt: string;
}

// Folders this process holds, released when it exits however it exits.
const held = new Set<string>();
let exitHookInstalled = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof data.pid === 'number' && typeof data.startedAt === 'string') {
      return { pid: data.pid, startedAt: data.startedAt };
    }
  } catch {
    // Unreadable or half-written by a run that died while taking it: no live holder to name.
  }
  return undefined;
}

function release(path: string): void {
  // Only our own lock: a run that took over a stale lock must not lose it to us.
  if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
  held.delete(path);
}

function releaseAll(): void {
  for (const path of held) release(path);
}

/**
 * Takes the lock of the reports folder (which must exist). Returns undefined when taken (or already
 * held by this process), else one line naming the run that holds it.
 */
export function acquireRunLock(dir: string): string | undefined {
  const path = join(resolve(dir), LOCK_FILE);
  if (held.has(path)) return undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // wx: created only if absent, so of two runs starting at once exactly one gets it.
      writeFileSync(path, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }), {
        flag: 'wx',
      });
      held.add(path);
      if (!exitHookInstalled) {
        process.on('exit', releaseAll);
        exitHookInstalled = true;
      }
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        return `cannot lock the reports folder ${resolve(dir)}: ${firstLine(error)}`;
      }
    }
    const holder = readHolder(path);
    if (holder?.pid === process.pid) {
      held.add(path);
      return undefined;
    }
    if (holder && alive(holder.pid)) {
      return (
        `another conformance run (process ${holder.pid}, started ${holder.startedAt}) is writing ` +
        `to ${resolve(dir)}; wait for it, or give this run its own CONFORMANCE_REPORTS_DIR`
      );
    }
    // Stale (its run is gone) or being written this instant: remove and try again.
    if (!holder) {
      // A lock just being written by a live run is young: give it a moment before judging it.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      const again = readHolder(path);
      if (again && alive(again.pid)) continue;
    }
    rmSync(path, { force: true });
  }
  return `cannot lock the reports folder ${resolve(dir)}: the lock file ${path} keeps coming back`;
}

/** Releases the lock of one folder, or of every folder, now (the exit hook would anyway). */
export function releaseRunLock(dir?: string): void {
  if (dir === undefined) releaseAll();
  else release(join(resolve(dir), LOCK_FILE));
}
