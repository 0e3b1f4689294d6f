// The TypeScript files of src/ and load/, for the tests that keep one copy of a concept: a second
// copy shows up as a file matching a pattern that only the one source may hold.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Repository paths (`src/...`, `load/...`) under `folders` whose text matches, except `source`. */
export function filesMatching(pattern: RegExp, folders: readonly string[], source: string): string[] {
  return folders
    .flatMap((folder) => tsFiles(join(ROOT, folder)))
    .map((path) => relative(ROOT, path).split('\\').join('/'))
    .filter((path) => path !== source && pattern.test(readFileSync(join(ROOT, path), 'utf8')));
}
