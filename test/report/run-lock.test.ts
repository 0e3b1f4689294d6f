// One run per reports folder: a live holder is named and refused, a dead one's lock taken over,
// and a process releases only its own lock.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireRunLock, LOCK_FILE, releaseRunLock } from '../../src/report/run-lock.ts';

const root = mkdtempSync(join(tmpdir(), 'run-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string): string {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return dir;
}

/** A process that lives until killed, and one that has already ended. */
function liveProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return child;
}
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((r) => child.on('exit', r));
  return child.pid ?? 999_999;
}

describe('acquireRunLock', () => {
  it('takes a free folder, again without complaint, and releases it', () => {
    const dir = folder('free');
    expect(acquireRunLock(dir)).toBeUndefined();
    expect(acquireRunLock(dir)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    releaseRunLock();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a folder a live run holds, naming it', () => {
    const dir = folder('held');
    const other = liveProcess();
    try {
      writeFileSync(
        join(dir, LOCK_FILE),
        JSON.stringify({ pid: other.pid, startedAt: '2026-11-24T14:00:00.000Z' }),
      );
      expect(acquireRunLock(dir)).toBe(
        `another conformance run (process ${other.pid}, started 2026-11-24T14:00:00.000Z) is writing to ${dir}; ` +
          'wait for it, or give this run its own CONFORMANCE_REPORTS_DIR',
      );
      // Its lock is not ours to remove.
      releaseRunLock();
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    } finally {
      other.kill();
    }
  });

  it('takes over the lock of a run that died', async () => {
    const dir = folder('stale');
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: await deadPid(), startedAt: '2026-11-24T13:00:00.000Z' }),
    );
    expect(acquireRunLock(dir)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    releaseRunLock();
  });

  it('releases one folder and keeps the others', () => {
    const a = folder('one');
    const b = folder('other');
    expect(acquireRunLock(a)).toBeUndefined();
    expect(acquireRunLock(b)).toBeUndefined();
    releaseRunLock(a);
    expect(existsSync(join(a, LOCK_FILE))).toBe(false);
    expect(existsSync(join(b, LOCK_FILE))).toBe(true);
    releaseRunLock();
    expect(existsSync(join(b, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock file left empty by a run that died while taking it', () => {
    const dir = folder('empty');
    writeFileSync(join(dir, LOCK_FILE), '');
    expect(acquireRunLock(dir)).toBeUndefined();
    releaseRunLock();
  });
});
