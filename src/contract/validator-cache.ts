// Each validator's code, as ajv generates it, kept beside the packages under the hash of what made
// it (the documents, the location, ajv's and ajv-formats' versions, the options): every thread of a
// run compiled the same two dozen validators again, about 150 ms a thread with ajv's own loading,
// where loading the kept code takes a few. ajv stays the one compiler: the code is ajv's standalone
// output for the same schema and options, run as ajv would run it.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { cacheDir, keepFile, readKept } from './cache-file.ts';

/** Where the validators' code is kept (a cache any run may delete). */
export const VALIDATOR_CACHE_DIR = cacheDir('conformance-validators');

// The generated code requires ajv's runtime helpers and ajv-formats' formats, resolved from here.
const requireHere = createRequire(import.meta.url);

function versionOf(name: string): string {
  try {
    return (requireHere(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** What the code of a validator depends on besides its location: the compilers and the documents. */
export function compilerKey(documents: readonly unknown[], options: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([versionOf('ajv'), versionOf('ajv-formats'), options, documents]))
    .digest('hex');
}

function fileFor(key: string, ref: string, dir: string): string {
  return join(dir, `${createHash('sha256').update(`${key} ${ref}`).digest('hex')}.cjs`);
}

/** The kept validator of `ref`, or undefined when none is kept (or it does not load). */
export function keptValidator(
  key: string,
  ref: string,
  dir = VALIDATOR_CACHE_DIR,
): ValidateFunction | undefined {
  const code = readKept(fileFor(key, ref, dir));
  if (code === undefined) return undefined;
  try {
    const module: { exports: unknown } = { exports: {} };
    new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
    const validate: unknown = module.exports;
    return typeof validate === 'function' ? (validate as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps ajv's standalone code of `ref`; a cache that cannot be written is no error. */
export function keepValidator(key: string, ref: string, code: string, dir = VALIDATOR_CACHE_DIR): void {
  keepFile(fileFor(key, ref, dir), code);
}
