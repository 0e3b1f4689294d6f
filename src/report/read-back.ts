// What the reports folder holds is untrusted input: a restored history cache or a downloaded
// artifact may carry a planted results.json or k6-<script>.json. Every file read back is held to its
// schema (schemas/results.schema.json, schemas/k6-report.schema.json, schemas/har.schema.json) before anything of it is used;
// one that does not match is set aside with a one-line reason, never rendered. What does match is
// still the target's and the file's text, escaped by each sink like any other.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import type { Har } from './har.ts';
import type { ConformanceResults } from './types.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Larger read-back files are not parsed at all (a results.json of a full run is a few MiB). */
export const MAX_READ_BACK_BYTES = 64 * 1024 * 1024;

export type ReadBack<T> = { ok: true; value: T } | { ok: false; reason: string };

let validators: { results: ValidateFunction; k6: ValidateFunction; har: ValidateFunction } | undefined;

function compiled(): { results: ValidateFunction; k6: ValidateFunction; har: ValidateFunction } {
  if (validators) return validators;
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats(ajv);
  const schema = (name: string) =>
    JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')) as object;
  validators = {
    results: ajv.compile(schema('results.schema.json')),
    k6: ajv.compile(schema('k6-report.schema.json')),
    har: ajv.compile(schema('har.schema.json')),
  };
  return validators;
}

function held<T>(validate: ValidateFunction, value: unknown): ReadBack<T> {
  if (validate(value)) return { ok: true, value: value as T };
  const first = validate.errors?.[0];
  const where = first?.instancePath ? `${first.instancePath.slice(0, 80)} ` : '';
  return { ok: false, reason: `does not match its schema (${where}${first?.message ?? 'invalid'})` };
}

/** A parsed results.json, held to schemas/results.schema.json. */
export function readBackResults(value: unknown): ReadBack<ConformanceResults> {
  return held(compiled().results, value);
}

/** A parsed k6-<script>.json, held to schemas/k6-report.schema.json. */
export function readBackLoadReport(value: unknown): ReadBack<LoadReport> {
  return held(compiled().k6, value);
}

/** A parsed HAR of a run (--har, reports/run.har), held to schemas/har.schema.json. */
export function readBackHar(value: unknown): ReadBack<Har> {
  return held(compiled().har, value);
}
