// The OpenAPI documents as JSON, kept beside the packages under the hash of their YAML text: every
// thread of a run (the reporter and each worker) read both documents, and YAML costs about 150 ms a
// thread (the parser's own loading included) where JSON costs 1 ms. The YAML stays the one source:
// a changed document has another hash, and a value JSON cannot hold exactly is never kept.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { cacheDir, keepFile, readKept } from './cache-file.ts';

/** Where the parsed documents are kept (a cache any run may delete). */
export const YAML_CACHE_DIR = cacheDir('conformance-documents');

// Loaded only on a miss: its loading is a third of the cost.
const requireHere = createRequire(import.meta.url);

/** The value of a YAML text, read from the cache when it holds this very text. */
export function parsedYaml(text: string, dir = YAML_CACHE_DIR): unknown {
  const file = join(dir, `${createHash('sha256').update(text).digest('hex')}.json`);
  const kept = readKept(file);
  if (kept !== undefined) {
    try {
      return JSON.parse(kept);
    } catch {
      // damaged: parsed again and kept anew
    }
  }
  const { parse } = requireHere('yaml') as typeof import('yaml');
  const value: unknown = parse(text);
  keep(file, value);
  return value;
}

/** Kept only when JSON gives back the same value; a cache that cannot be written is no error. */
function keep(file: string, value: unknown): void {
  let json: string;
  try {
    json = JSON.stringify(value);
    if (!isDeepStrictEqual(JSON.parse(json), value)) return;
  } catch {
    return;
  }
  keepFile(file, json);
}
