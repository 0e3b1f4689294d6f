// Writes a report so that a reader (CI, a browser, the next run's history) sees the old file or the
// new one, never a truncated one: the text goes to a temporary file beside the target (same folder,
// so the same file system) and is renamed into place, which POSIX makes atomic.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Temporary files being written now: a forced exit (a second Ctrl-C) removes them on its way out.
const pending = new Set<string>();
let counter = 0;

/** Hidden, and named for this process, so two runs writing the same report never share one. */
export function reserveTemporaryPath(path: string): string {
  counter += 1;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${counter}.tmp`);
  pending.add(temporary);
  return temporary;
}

/** The temporary file is gone (renamed into place or removed): a forced exit has nothing to remove. */
export function settleTemporaryPath(temporary: string): void {
  pending.delete(temporary);
}

export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = reserveTemporaryPath(path);
  try {
    // Synchronous on purpose: a forced exit (a second Ctrl-C) runs between two JavaScript steps,
    // so it finds the temporary file whole or not begun. An asynchronous write could still be
    // creating it on libuv's threads after the exit's clean-up had looked (seen on a loaded
    // machine: a `.index.html.*.tmp` left behind). flush: the bytes reach the disk before the
    // rename makes them visible.
    writeFileSync(temporary, text, { flush: true });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    pending.delete(temporary);
  }
}

/** Synchronous, for a process that is about to exit: removes the temporary files still open. */
export function removeTemporaryFiles(): void {
  for (const path of pending) rmSync(path, { force: true });
  pending.clear();
}

/**
 * Writes several files as one set: every text goes to its temporary file first, then all are
 * renamed into place in one synchronous step, with `before` (setting the last set aside) in that
 * same step. A run that dies while writing leaves the last set whole; a forced exit, which runs
 * between JavaScript steps, finds the old set or the new one, never a mix.
 */
export function writeSetAtomic(files: ReadonlyArray<readonly [string, string]>, before: () => void): void {
  const staged: Array<[string, string]> = [];
  try {
    for (const [path, text] of files) {
      const temporary = reserveTemporaryPath(path);
      staged.push([temporary, path]);
      writeFileSync(temporary, text, { flush: true });
    }
    before();
    for (const [temporary, path] of staged) renameSync(temporary, path);
  } finally {
    for (const [temporary] of staged) {
      rmSync(temporary, { force: true });
      pending.delete(temporary);
    }
  }
}
