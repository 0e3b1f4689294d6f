// Every MUST verdict of the generated checks rests on the spec: each request constraint of
// schemas/ carries its trace (x-trace: a spec line, or "our choice"), a break is refused only when
// its constraint is the spec's, and the choices the spec leaves open are tolerated.
import { describe, expect, it } from 'vitest';
import { isObject } from '../../src/contract/documents.ts';
import { operations } from '../../src/contract/index.ts';
import { type Mutation, mutationsOf } from '../../src/generate/mutations.ts';
import { requestSchemas, type Schema } from '../../src/generate/schema.ts';
import { expectationOf } from '../../src/generate/semantics.ts';
import { CONSTRAINT_KEYWORDS, parseTrace, TRACE_KEY, traceOf } from '../../src/generate/trace.ts';

const ops = operations().map((op) => op.operationId);
const all = ops.flatMap((id) => mutationsOf(requestSchemas(id)).map((m) => ({ op: id, m })));

/** Each schema node of a request, with where it is, for the keyword walk. */
function nodes(schema: Schema, at: string): { at: string; node: Schema }[] {
  const out = [{ at, node: schema }];
  if (isObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (isObject(sub)) out.push(...nodes(sub, `${at}.${name}`));
    }
  }
  if (isObject(schema.items)) out.push(...nodes(schema.items, `${at}[]`));
  return out;
}

describe('the trace of every request constraint', () => {
  it('every break names a traced constraint (no MUST verdict rests on an untraced one)', () => {
    const untraced = all
      .filter(({ m }) => m.kind === 'break' && !m.constraint?.trace)
      .map(({ op, m }) => `${op} ${m.id} (${m.constraint?.at} ${m.constraint?.key})`);
    expect(untraced).toEqual([]);
    expect(all.filter(({ m }) => m.kind === 'break').length).toBeGreaterThan(40);
  });

  it('every constraint keyword of a request schema, and every object, carries a trace', () => {
    const missing: string[] = [];
    for (const id of ops) {
      const schemas = requestSchemas(id);
      const walk = [
        ...schemas.parameters.flatMap((p) => nodes(p.schema, `${id} ${p.in}.${p.name}`)),
        ...(schemas.body ? nodes(schemas.body.schema, `${id} body`) : []),
      ];
      for (const { at, node } of walk) {
        const keys = CONSTRAINT_KEYWORDS.filter((k) => k in node);
        if (node.type === 'object') keys.push('additionalProperties' as never);
        for (const key of keys) if (!traceOf(node, key)) missing.push(`${at} ${key}`);
      }
      if (schemas.body) {
        for (const key of ['required', 'json', 'media-type']) {
          if (!traceOf(schemas.body.node, key)) missing.push(`${id} requestBody ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every x-trace entry is a spec line with the spec\'s words in quotes, or "our choice"', () => {
    const bad: string[] = [];
    for (const id of ops) {
      const schemas = requestSchemas(id);
      const tables = [
        ...schemas.parameters.flatMap((p) => nodes(p.schema, p.name)),
        ...(schemas.body
          ? [...nodes(schemas.body.schema, 'body'), { at: 'requestBody', node: schemas.body.node }]
          : []),
      ];
      for (const { at, node } of tables) {
        const table = node[TRACE_KEY];
        if (!isObject(table)) continue;
        for (const [key, text] of Object.entries(table)) {
          const trace = parseTrace(text);
          if (!trace || (trace.kind === 'spec' && !/"[^"]+"/.test(trace.text)))
            bad.push(`${id} ${at} ${key}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('verdicts follow the trace', () => {
  const byId = (op: string, id: string): Mutation => {
    const hit = mutationsOf(requestSchemas(op)).find((m) => m.id === id);
    if (!hit) throw new Error(`no mutation ${op} ${id}`);
    return hit;
  };

  it('a break of a constraint the spec shows is refused', () => {
    for (const [op, id] of [
      ['createPets', 'body.name:missing'],
      ['createPets', 'body.status:outside-enum'],
      ['createPets', 'body:malformed-json'],
      ['createPets', 'body:empty'],
      ['createToken', 'body.client_id:wrong-type-array'],
      ['listPets', 'query.limit:not-a-number'],
      ['listPets', 'query.limit:negative'],
    ] as const) {
      expect(expectationOf(byId(op, id)).kind, `${op} ${id}`).toBe('refuse');
    }
  });

  it('where the spec is silent, every conformant answer passes: tolerated', () => {
    for (const [op, id] of [
      ['createPets', 'body:wrong-content-type'], // request media types
      ['createToken', 'body:wrong-content-type'],
      ['createPets', 'body:unlisted-property'], // unknown properties
      ['listPets', 'query.limit:above-maximum'], // limit above 100
      ['listPets', 'query.limit:below-minimum'],
      ['listCustomers', 'query.page:below-minimum'], // page 0 or negative
      ['listCustomers', 'query.page:negative'],
      ['createPets', 'body.id:wrong-type-string'], // integer-looking strings
      ['createPets', 'body.id:beyond-int64'], // formats
      ['listPets', 'query.limit:repeated'],
      ['createPets', 'body.name:non-ascii'],
    ] as const) {
      expect(expectationOf(byId(op, id)).kind, `${op} ${id}`).toBe('tolerate');
    }
    const properties = requestSchemas('createPets').body?.schema.properties as Record<string, Schema>;
    expect(traceOf(properties.id, 'format')?.kind).toBe('our-choice');
  });

  it('a break whose constraint is not traced is tolerated, never a MUST', () => {
    const untraced: Mutation = {
      id: 'body.x:wrong-type-number',
      description: 'x sent as number',
      kind: 'break',
      constraint: { at: 'body.x', key: 'type' },
      apply: (req) => req,
    };
    expect(expectationOf(untraced)).toMatchObject({ kind: 'tolerate', why: /untraced/ });
  });
});
