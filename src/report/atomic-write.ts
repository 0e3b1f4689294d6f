// Writes a report so that a reader (CI, a browser, the next run's history) sees the old file or the
// new one, never a truncated one: the text goes to a temporary file beside the target (same folder,
// so the same file system) and is renamed into place, which POSIX makes atomic.
import { rmSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
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

/** Puts a finished temporary file in place of the report (one rename). */
export async function commitTemporary(temporary: string, path: string): Promise<void> {
  try {
    await rename(temporary, path);
  } finally {
    pending.delete(temporary);
  }
}

/** Gives up a temporary file (its writer failed). */
export async function discardTemporary(temporary: string): Promise<void> {
  await rm(temporary, { force: true });
  pending.delete(temporary);
}

export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = reserveTemporaryPath(path);
  try {
    // flush: the bytes reach the disk before the rename makes them visible.
    await writeFile(temporary, text, { flush: true });
    await commitTemporary(temporary, path);
  } catch (error) {
    await discardTemporary(temporary);
    throw error;
  }
}

/** Synchronous, for a process that is about to exit: removes the temporary files still open. */
export function removeTemporaryFiles(): void {
  for (const path of pending) rmSync(path, { force: true });
  pending.clear();
}
