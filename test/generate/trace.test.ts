// Every MUST verdict of the generated checks rests on the spec: each request constraint of
// schemas/ carries its trace (x-trace: a spec line, or "our choice"), a break is refused only when
// its constraint is the spec's, and the choices the spec leaves open are tolerated.
import { describe, expect, it } from 'vitest';
import { isObject, loadDocument, nodeAt, resolveRef } from '../../src/contract/documents.ts';
import { findOperation, operations } from '../../src/contract/index.ts';
import { type Mutation, mutationsOf } from '../../src/generate/mutations.ts';
import { inline, requestSchemas, type Schema } from '../../src/generate/schema.ts';
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
  for (const [i, part] of (Array.isArray(schema.allOf) ? schema.allOf : []).entries()) {
    if (isObject(part)) out.push(...nodes(part, `${at}.allOf[${i}]`));
  }
  return out;
}

/** The JSON schema of every answer an operation documents, inlined: what the verdicts validate. */
function responseSchemas(operationId: string): { status: string; schema: Schema }[] {
  const op = findOperation(operationId);
  const loaded = loadDocument(op.service);
  const responses = nodeAt(loaded.doc, `${op.pointer}/responses`);
  if (!isObject(responses)) return [];
  return Object.keys(responses).flatMap((status) => {
    const pointer = `${op.pointer}/responses/${status}`;
    const { node } = resolveRef(loaded, nodeAt(loaded.doc, pointer), pointer);
    const content = isObject(node) && isObject(node.content) ? node.content['application/json'] : undefined;
    return isObject(content) && isObject(content.schema)
      ? [{ status, schema: inline(loaded.doc, content.schema) as Schema }]
      : [];
  });
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

  it("every constraint of an answer schema the verdicts validate is the spec's (a 2xx or an error body judged by it is a MUST)", () => {
    const missing: string[] = [];
    for (const id of ops) {
      for (const { status, schema } of responseSchemas(id)) {
        for (const { at, node } of nodes(schema, `${id} ${status}`)) {
          for (const key of CONSTRAINT_KEYWORDS.filter((k) => k in node)) {
            if (traceOf(node, key)?.kind !== 'spec') missing.push(`${at} ${key}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
    expect(responseSchemas('listCustomers').length).toBeGreaterThan(3);
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
      ['listPets', 'query.limit:negative'], // no minimum of limit is shown
      ['listCustomers', 'query.page:below-minimum'], // page 0 or negative
      ['listCustomers', 'query.page:negative'],
      ['createPets', 'body.id:wrong-type-string'], // integer-looking strings
      ['createPets', 'body.id:beyond-int64'], // formats
      ['listPets', 'query.limit:repeated'],
      ['createPets', 'body.name:non-ascii'],
    ] as const) {
      expect(expectationOf(byId(op, id)).kind, `${op} ${id}`).toBe('tolerate');
    }
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
