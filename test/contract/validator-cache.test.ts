// The kept validators (src/contract/validator-cache.ts) judge as ajv's compiled ones do: for every
// schema of both documents, the code kept and loaded again gives the same verdict and the same
// errors as a fresh compile, on bodies built to break each property; a kept file that does not load
// is compiled again, and another document is another key.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/contract/index.ts';
import { compilerKey, keepValidator, keptValidator } from '../../src/contract/validator-cache.ts';
import { AJV_OPTIONS } from '../../src/contract/validators.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const { default: standaloneCode } = createRequire(import.meta.url)('ajv/dist/standalone/index.js') as {
  default: (ajv: Ajv2020, validate: ValidateFunction) => string;
};
const dir = mkdtempSync(join(tmpdir(), 'validator-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const documents = (['main', 'petstore'] as const).map((s) => loadDocument(s));

/** Every schema location of a document: each `schema` of an operation, each component schema. */
function schemaPointers(node: unknown, pointer = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(node)) {
    const at = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (k === 'schema' || /^\/components\/schemas\/[^/]+$/.test(at)) out.push(at);
    else out.push(...schemaPointers(v, at));
  }
  return out;
}

const PROBES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  2 ** 63,
  'x',
  '',
  '2026-01-01T00:00:00Z',
  'not-a-date',
  true,
  [],
  {},
];

/** Every property name the document's schemas give: the bodies break each of them in turn. */
function propertyNames(doc: unknown): string[] {
  const keys = new Set<string>();
  const walk = (n: unknown) => {
    if (typeof n !== 'object' || n === null) return;
    const props = (n as { properties?: Record<string, unknown> }).properties;
    if (props && typeof props === 'object') for (const k of Object.keys(props)) keys.add(k);
    for (const v of Object.values(n)) walk(v);
  };
  walk(doc);
  return [...keys];
}

/** Bodies that break each property in turn, alone, in a list and in an envelope. */
function bodiesFor(keys: readonly string[]): unknown[] {
  const base = Object.fromEntries(keys.map((k) => [k, 'x']));
  const out: unknown[] = [...PROBES, base, [base], { data: [base], pagination: base }];
  for (const k of keys)
    for (const p of PROBES) out.push({ ...base, [k]: p }, { data: [{ ...base, [k]: p }] });
  return out;
}

describe('the kept validators', () => {
  const fresh = new Ajv2020(AJV_OPTIONS);
  addFormats(fresh);
  for (const d of documents) fresh.addSchema(d.doc, d.id);
  const key = compilerKey(
    documents.map((d) => d.doc),
    AJV_OPTIONS,
  );

  it('judge every schema of both documents as a fresh compile does', () => {
    let compared = 0;
    for (const d of documents) {
      const pointers = schemaPointers(d.doc);
      const bodies = bodiesFor(propertyNames(d.doc));
      expect(pointers.length).toBeGreaterThan(5);
      for (const pointer of pointers) {
        const ref = `${d.id}#${pointer}`;
        const compiled = fresh.compile({ $ref: ref });
        keepValidator(key, ref, standaloneCode(fresh, compiled), dir);
        const kept = keptValidator(key, ref, dir);
        if (!kept) throw new Error(`${ref} was not kept`);
        for (const body of bodies) {
          const a = compiled(body);
          const errorsA = JSON.stringify(compiled.errors);
          const b = kept(body);
          expect({ ref, body, valid: b, errors: JSON.stringify(kept.errors) }).toEqual({
            ref,
            body,
            valid: a,
            errors: errorsA,
          });
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('compiles again what does not load, and keys each document set apart', () => {
    const ref = `${documents[0]?.id}#/components/schemas/ErrorBody`;
    keepValidator('broken', ref, 'this is not JavaScript (', dir);
    expect(keptValidator('broken', ref, dir)).toBeUndefined();
    keepValidator('not-a-function', ref, 'module.exports = 42;', dir);
    expect(keptValidator('not-a-function', ref, dir)).toBeUndefined();
    expect(keptValidator('never-kept', ref, dir)).toBeUndefined();
    const changed = structuredClone(documents.map((d) => d.doc));
    (changed[0] as { info: { title: string } }).info.title = 'another';
    expect(compilerKey(changed, AJV_OPTIONS)).not.toBe(key);
    // A folder that cannot be made costs nothing but the keeping.
    const notADir = join(dir, 'a-file');
    writeFileSync(notADir, '');
    keepValidator(key, ref, 'module.exports = () => true;', join(notADir, 'below'));
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
