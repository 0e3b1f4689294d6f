// The generators against the documents themselves: every valid request they make honours the
// operation's schemas, and every mutation breaks exactly what it says (property tests).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/contract/index.ts';
import { mutationsOf } from '../../src/generate/mutations.ts';
import type { GeneratedRequest } from '../../src/generate/request.ts';
import { honours, requestSchemas, typedParameter } from '../../src/generate/schema.ts';
import { type Facts, planOf } from '../../src/generate/semantics.ts';

const FACTS: Facts = {
  credentials: { clientId: 'client', clientSecret: 'secret-value-long-enough' },
  totalPages: 3,
  pets: [
    { id: 1, name: 'Rex' },
    { id: 2, name: 'Tom', status: 'sold' },
  ],
};

/** Whether a generated request honours every schema of its operation. */
function honoursAll(req: GeneratedRequest): boolean {
  const schemas = requestSchemas(req.operationId);
  for (const p of schemas.parameters) {
    const place = p.in === 'query' ? req.query : p.in === 'path' ? req.pathParams : {};
    // A value written with its escapes (as it goes on the wire) is read as the server decodes it.
    const escaped =
      p.in === 'query'
        ? (new URLSearchParams(req.escaped?.query ?? '').get(p.name) ?? undefined)
        : req.escaped?.path?.[p.name];
    const text = escaped ?? place[p.name];
    if (Array.isArray(text)) return false; // a repeated parameter is not one value
    if (text === undefined) {
      if (p.required) return false;
      continue;
    }
    if (!honours(p.schema, typedParameter(p.schema, text))) return false;
  }
  if (schemas.body) {
    if (req.body?.kind !== 'json') return !schemas.body.required && req.body === undefined;
    if (!honours(schemas.body.schema, req.body.value)) return false;
  }
  return true;
}

describe('valid requests', () => {
  for (const op of operations()) {
    it(`${op.operationId}: every generated request honours the schemas`, () => {
      const plan = planOf(op.operationId, FACTS);
      fc.assert(
        fc.property(plan.valid, (req) => honoursAll(req)),
        { numRuns: 200, seed: 1 },
      );
      fc.assert(
        fc.property(plan.base, (req) => honoursAll(req)),
        { numRuns: 50, seed: 2 },
      );
    });
  }

  it('listCustomers draws the last page and the first beyond it', () => {
    const pages = new Set(
      fc.sample(planOf('listCustomers', FACTS).valid, { numRuns: 300, seed: 3 }).map((r) => r.query.page),
    );
    expect(pages).toContain('3');
    expect(pages).toContain('4');
    expect(pages).toContain('1');
  });

  it('pet names are realistic (faker), and optional fields are sometimes left out', () => {
    const bodies = fc
      .sample(planOf('createPets', FACTS).valid, { numRuns: 100, seed: 4 })
      .map((r) => (r.body?.kind === 'json' ? (r.body.value as Record<string, unknown>) : {}));
    expect(bodies.every((b) => typeof b.name === 'string' && /^[A-Z]/.test(b.name))).toBe(true);
    expect(bodies.some((b) => 'tag' in b)).toBe(true);
    expect(bodies.some((b) => !('tag' in b))).toBe(true);
    expect(new Set(bodies.map((b) => b.status))).toEqual(
      new Set([undefined, 'available', 'pending', 'sold']),
    );
  });
});

describe('mutations', () => {
  const BODY_LEVEL = ['body:malformed-json', 'body:wrong-content-type', 'body:empty'];

  for (const op of operations()) {
    const plan = planOf(op.operationId, FACTS);
    for (const mutation of mutationsOf(plan.schemas)) {
      if (mutation.kind === 'edge') {
        it(`${op.operationId} ${mutation.id}: changes the request`, () => {
          fc.assert(
            fc.property(plan.base, (base) => JSON.stringify(mutation.apply(base)) !== JSON.stringify(base)),
            { numRuns: 20, seed: 5 },
          );
        });
        continue;
      }
      it(`${op.operationId} ${mutation.id}: breaks the request`, () => {
        fc.assert(
          fc.property(plan.base, (base) => {
            const broken = mutation.apply(base);
            if (!BODY_LEVEL.includes(mutation.id)) return !honoursAll(broken);
            if (broken.body?.kind !== 'raw') return false;
            if (mutation.id === 'body:wrong-content-type') return broken.body.contentType === 'text/plain';
            if (mutation.id === 'body:empty') return broken.body.text === '';
            try {
              JSON.parse(broken.body.text);
              return false;
            } catch {
              return true;
            }
          }),
          { numRuns: 20, seed: 5 },
        );
      });
    }
  }

  it('cover every kind the issue names, on the operations that take input', () => {
    const ids = operations().flatMap((op) =>
      mutationsOf(requestSchemas(op.operationId)).map((m) => `${op.operationId} ${m.id}`),
    );
    for (const expected of [
      'createPets body.name:missing',
      'createPets body.id:wrong-type-string',
      'createPets body.status:outside-enum',
      'createPets body:malformed-json',
      'createPets body:wrong-content-type',
      'createPets body:empty',
      'createToken body.client_id:wrong-type-array',
      'listPets query.limit:negative',
      'listPets query.limit:above-maximum',
      'listCustomers query.page:not-a-number',
      'listCustomers query.page:below-minimum',
    ]) {
      expect(ids).toContain(expected);
    }
  });

  it('the spec shows limit as an integer with a maximum of 100 and leaves the rest open', () => {
    const plan = planOf('listPets', FACTS);
    const byId = new Map(mutationsOf(plan.schemas).map((m) => [m.id, plan.expectationOf(m).kind]));
    expect(byId.get('query.limit:above-maximum')).toBe('tolerate');
    expect(byId.get('query.limit:negative')).toBe('tolerate');
    expect(byId.get('query.limit:not-a-number')).toBe('refuse');
  });
});
