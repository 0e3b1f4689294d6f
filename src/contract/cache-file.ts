// The files the contract keeps beside the packages (the parsed documents, the validators' code):
// derived data any run may delete, so reading or writing one never fails a run.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** node_modules/.cache/<name>/ of this checkout. */
export function cacheDir(name: string): string {
  return fileURLToPath(new URL(`../../node_modules/.cache/${name}/`, import.meta.url));
}

/** A kept file's text, or undefined when there is none (or it cannot be read). */
export function readKept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Keeps `text` at `file`, whole or not at all; a folder that cannot hold it is no error. */
export function keepFile(file: string, text: string): void {
  // Unique per thread and call: workers that miss together each write their own, then rename.
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // its folder cannot hold it either: nothing was written
    }
  }
}
