// Valid values from a JSON schema as fast-check arbitraries: every type, enum, bound, length and
// required field of the schema is honoured. Strings are realistic (@faker-js/faker, chosen by the
// field's name) and still shrink: a faker value is drawn from a fast-check seed, so shrinking the
// seed walks to a simpler, still valid, value.
import { faker } from '@faker-js/faker/locale/en';
import fc from 'fast-check';
import { isObject } from '../contract/documents.ts';
import type { Schema } from './schema.ts';

/** Realistic text for a field, by its name; seeded, so a run replays exactly. */
const TEXT: Record<string, () => string> = {
  name: () => faker.animal.petName(),
  tag: () => faker.animal.type(),
  client_id: () => `${faker.word.noun()}-${faker.string.alphanumeric(8)}`,
  client_secret: () => faker.string.alphanumeric(24),
};

export function fakerText(field: string | undefined): fc.Arbitrary<string> {
  const make = (field && TEXT[field]) || (() => faker.word.sample());
  return fc.nat({ max: 1_000_000 }).map((seed) => {
    faker.seed(seed);
    return make();
  });
}

function fitLength(text: string, schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const padded = text.length < min ? text.padEnd(min, 'x') : text;
  return padded.length > max ? padded.slice(0, max) : padded;
}

/** The integer bounds a schema sets (exclusive bounds turned inclusive). */
export function integerBounds(schema: Schema): { min?: number; max?: number } {
  const bounds: { min?: number; max?: number } = {};
  if (typeof schema.minimum === 'number') bounds.min = Math.ceil(schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number') bounds.min = Math.floor(schema.exclusiveMinimum) + 1;
  if (typeof schema.maximum === 'number') bounds.max = Math.floor(schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number') bounds.max = Math.ceil(schema.exclusiveMaximum) - 1;
  return bounds;
}

/** Integers within the bounds, the bounds themselves drawn often (boundary values find off-by-ones). */
export function boundedInteger(min: number, max: number): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...new Set([min, max])), weight: 1 },
    { arbitrary: fc.integer({ min, max }), weight: 3 },
  );
}

/** The schema's type (the first, where it lists several). */
export const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type)
    ? String(schema.type[0])
    : typeof schema.type === 'string'
      ? schema.type
      : undefined;

/** A valid value of the schema; `field` names the property, for realistic text. */
export function validValue(schema: Schema, field?: string): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  switch (typeOf(schema)) {
    case 'integer': {
      const { min = -1_000_000, max = 1_000_000 } = integerBounds(schema);
      return boundedInteger(min, Math.max(min, max));
    }
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fakerText(field).map((text) => fitLength(text, schema));
    case 'array': {
      const items = isObject(schema.items) ? validValue(schema.items) : fc.constant(null);
      return fc.array(items, { maxLength: typeof schema.maxItems === 'number' ? schema.maxItems : 3 });
    }
    case 'object':
      return validObject(schema);
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  }
}

/** Every required property, each optional one sometimes; no others when additionalProperties is false. */
export function validObject(
  schema: Schema,
  overrides: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<Record<string, unknown>> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) {
    shape[name] = overrides[name] ?? validValue(isObject(sub) ? sub : {}, name);
  }
  // Optional keys are left out sometimes; additionalProperties is never used to add extras.
  return fc.record(shape, {
    requiredKeys: Object.keys(shape).filter((n) => required.has(n)),
  }) as fc.Arbitrary<Record<string, unknown>>;
}
