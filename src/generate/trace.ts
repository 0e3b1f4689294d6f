// Where a request constraint of schemas/ comes from. Every constraint a generated verdict relies on
// carries an `x-trace` entry next to it in the OpenAPI documents (the one place the trace is kept),
// keyed by the constraint (a JSON Schema keyword, or one of the few names below), saying either
//   "spec (SECTION): ..."    the spec shows it: a request that breaks it must be refused, an answer
//                            must honour it; or
//   "our choice: ..."        the spec is silent: a request that breaks it is tolerated (any answer
//                            but a 5xx, and a 2xx must still match the answer schema); no answer
//                            schema may hold one (test/generate/trace.test.ts).
// What the spec leaves open about values a constraint allows (an id beyond int64 or 2^53, 1e2 for
// an integer, very long strings) is not a break but an edge (src/generate/mutations.ts): tolerated.
// A break whose constraint has no entry is tolerated too, and test/generate/trace.test.ts fails:
// no MUST verdict rests on an untraced constraint.
import { isObject } from '../contract/documents.ts';
import type { Schema } from './schema.ts';

export interface Trace {
  kind: 'spec' | 'our-choice';
  /** The entry as written in the document. */
  text: string;
}

/**
 * Constraint names that are not JSON Schema keywords: `empty` (an empty query value), `negative`
 * (a negative count), `integer-looking-string` ("7" for an integer field), and on a request
 * body `media-type` (its Content-Type), `json` (its syntax) and `required` (its presence).
 */
export const TRACE_KEY = 'x-trace';

export function parseTrace(text: unknown): Trace | undefined {
  if (typeof text !== 'string') return undefined;
  if (/^spec \([^)]+\): \S/.test(text)) return { kind: 'spec', text };
  if (/^our choice: \S/.test(text)) return { kind: 'our-choice', text };
  return undefined;
}

/** The trace of one constraint of a schema node (or a request body node). */
export function traceOf(node: Schema | undefined, key: string): Trace | undefined {
  const table = node?.[TRACE_KEY];
  return isObject(table) ? parseTrace(table[key]) : undefined;
}

/** Keywords that constrain a request value; each one present in a request schema must be traced. */
export const CONSTRAINT_KEYWORDS = [
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'required',
  'minItems',
  'maxItems',
] as const;
