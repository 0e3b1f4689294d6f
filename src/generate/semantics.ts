// What the spec says beyond the schema, per operation: which valid requests must succeed and which
// may be refused, and the facts a generator needs from the target (the number of pages, existing
// pets). Which variants of a request must be refused and which are tolerated is not decided here:
// it follows from the trace of the constraint each one breaks (the x-trace entries of schemas/,
// src/generate/trace.ts). An operation without an entry gets the schema's defaults.
import fc from 'fast-check';
import type { OperationInfo } from '../contract/index.ts';
import type { Mutation } from './mutations.ts';
import type { Auth, GeneratedRequest } from './request.ts';
import { type RequestSchemas, requestSchemas } from './schema.ts';
import { boundedInteger, fakerText, validObject, validValue } from './values.ts';

/** Learned from the target before generating (one probe each). */
export interface Facts {
  credentials: { clientId: string; clientSecret: string };
  /** The schemes the route takes in this run, where fewer than the document lists (route-schemes.ts). */
  schemes?: Auth[];
  /** total_pages of GET /v1/customers. */
  totalPages?: number;
  /** Pets listed by GET /pets, as answered. */
  pets?: Record<string, unknown>[];
}

export type Expected =
  | { kind: 'success' }
  /** Any 4xx, for the reason given (a page beyond the last). */
  | { kind: 'refusal'; why: string }
  /** A 2xx or a 4xx (unknown credentials, an unknown pet). */
  | { kind: 'either'; why: string };

export type Expectation = { kind: 'refuse' } | { kind: 'tolerate'; why: string };

export interface OperationPlan {
  op: OperationInfo;
  schemas: RequestSchemas;
  valid: fc.Arbitrary<GeneratedRequest>;
  /** Valid requests that mutations start from (the token route: the configured credentials). */
  base: fc.Arbitrary<GeneratedRequest>;
  expect(req: GeneratedRequest): Expected;
  expectationOf(mutation: Mutation): Expectation;
  /** A 2xx answer must equal this (a listed pet read by id). */
  equalTo?(req: GeneratedRequest): unknown;
  /** A 2xx is read back and must equal what was sent (GNR-04). */
  readBack?: boolean;
}

/**
 * Stands for a fresh pet id in generated bodies; replaced right before sending (see fresh-ids.ts),
 * so a shrunk request that is sent again never collides with the pet its first try created.
 */
export const FRESH_ID = 7_777_777_777_777;

function authOf(op: OperationInfo, taken?: readonly Auth[]): fc.Arbitrary<Auth> {
  if (op.security.length === 0) return fc.constant('none');
  // Every scheme the route takes is used ("API key or bearer token as the route allows").
  const schemes = taken?.length ? op.security.filter((s) => taken.includes(s)) : op.security;
  return fc.constantFrom(...(schemes.length ? schemes : op.security));
}

function queryOf(schemas: RequestSchemas, overrides: Record<string, fc.Arbitrary<string>> = {}) {
  const shape: Record<string, fc.Arbitrary<string>> = {};
  const required: string[] = [];
  for (const p of schemas.parameters.filter((x) => x.in === 'query')) {
    shape[p.name] = overrides[p.name] ?? validValue(p.schema, p.name).map(String);
    if (p.required) required.push(p.name);
  }
  return fc.record(shape, { requiredKeys: required }) as fc.Arbitrary<Record<string, string>>;
}

function schemaDefault(
  schemas: RequestSchemas,
  overrides: Record<string, fc.Arbitrary<string>> = {},
  taken?: readonly Auth[],
) {
  const { op } = schemas;
  const pathParams = fc.record(
    Object.fromEntries(
      schemas.parameters
        .filter((p) => p.in === 'path')
        .map((p) => [p.name, overrides[p.name] ?? validValue(p.schema, p.name).map(String)]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const query = queryOf(schemas, overrides);
  const body = schemas.body ? validValue(schemas.body.schema) : fc.constant(undefined);
  return fc.record({ auth: authOf(op, taken), pathParams, query, body }).map(
    ({ auth, pathParams: p, query: q, body: b }): GeneratedRequest => ({
      operationId: op.operationId,
      auth,
      pathParams: p,
      query: q,
      ...(b === undefined ? {} : { body: { kind: 'json', value: b } }),
    }),
  );
}

/**
 * What a variant of a valid request must get. A break of a constraint the spec shows is refused
 * (GNR-03); a break of one the spec is silent on ("our choice" in its trace), an edge, and a break
 * whose constraint is not traced are tolerated: any answer but a 5xx, and a 2xx that matches the
 * answer schema. test/generate/trace.test.ts fails while any break is untraced.
 */
export function expectationOf(mutation: Mutation): Expectation {
  if (mutation.kind === 'edge') {
    return {
      kind: 'tolerate',
      why: 'the spec says nothing of such a value: it may be accepted or refused, never answered with a 5xx',
    };
  }
  const trace = mutation.constraint?.trace;
  if (trace?.kind === 'spec') return { kind: 'refuse' };
  return {
    kind: 'tolerate',
    why: trace
      ? trace.text
      : `untraced constraint ${mutation.constraint?.at ?? ''} ${mutation.constraint?.key ?? ''}`,
  };
}

function plain(operationId: string): OperationPlan {
  const schemas = requestSchemas(operationId);
  const valid = schemaDefault(schemas);
  return {
    op: schemas.op,
    schemas,
    valid,
    base: valid,
    expect: () => ({ kind: 'success' }),
    expectationOf,
  };
}

const PLANS: Record<string, (facts: Facts) => OperationPlan> = {
  createToken: (facts) => {
    const schemas = requestSchemas('createToken');
    const configured = fc.constant({
      client_id: facts.credentials.clientId,
      client_secret: facts.credentials.clientSecret,
    });
    const unknown = validObject(schemas.body?.schema ?? {});
    const make = (body: unknown): GeneratedRequest => ({
      operationId: 'createToken',
      auth: 'none',
      pathParams: {},
      query: {},
      body: { kind: 'json', value: body },
    });
    return {
      ...plain('createToken'),
      valid: fc.oneof({ arbitrary: configured, weight: 1 }, { arbitrary: unknown, weight: 2 }).map(make),
      // Broken from the configured credentials, so a loose server would hand out a token.
      base: configured.map(make),
      expect: (req) => {
        const body = req.body?.kind === 'json' ? (req.body.value as Record<string, unknown>) : {};
        return body.client_id === facts.credentials.clientId &&
          body.client_secret === facts.credentials.clientSecret
          ? { kind: 'success' }
          : { kind: 'either', why: 'unknown client credentials may be refused' };
      },
    };
  },
  listCustomers: (facts) => {
    const schemas = requestSchemas('listCustomers');
    const last = Math.max(1, facts.totalPages ?? 1);
    // Pages from 1 to two past the last: the last page and the first beyond it are drawn often.
    const page = fc.oneof(fc.constantFrom(last, last + 1), boundedInteger(1, last + 2)).map(String);
    return {
      ...plain('listCustomers'),
      valid: schemaDefault(schemas, { page }, facts.schemes),
      base: schemaDefault(schemas, { page }, facts.schemes),
      expect: (req) =>
        typeof req.query.page === 'string' && Number(req.query.page) > last
          ? { kind: 'refusal', why: `page ${req.query.page} is beyond the last page ${last} (422)` }
          : { kind: 'success' },
    };
  },
  createPets: () => {
    const schemas = requestSchemas('createPets');
    const body = validObject(schemas.body?.schema ?? {}, { id: fc.constant(FRESH_ID) });
    const valid = body.map(
      (value): GeneratedRequest => ({
        operationId: 'createPets',
        auth: 'none',
        pathParams: {},
        query: {},
        body: { kind: 'json', value },
      }),
    );
    return { ...plain('createPets'), valid, base: valid, readBack: true };
  },
  showPetById: (facts) => {
    const listed = (facts.pets ?? []).filter((p) => typeof p.id === 'number' || typeof p.id === 'string');
    const known = listed.map((p) => String(p.id));
    const choices: fc.Arbitrary<string>[] = [fc.constant(String(FRESH_ID)), fakerText('petId')];
    const petId = known.length
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...known), weight: 3 },
          ...choices.map((arbitrary) => ({ arbitrary, weight: 1 })),
        )
      : fc.oneof(...choices);
    const valid = petId.map(
      (id): GeneratedRequest => ({
        operationId: 'showPetById',
        auth: 'none',
        pathParams: { petId: id },
        query: {},
      }),
    );
    const byId = new Map(listed.map((p) => [String(p.id), p]));
    return {
      ...plain('showPetById'),
      valid,
      base: valid,
      expect: (req) =>
        byId.has(req.pathParams.petId ?? '')
          ? { kind: 'success' }
          : { kind: 'either', why: `no pet ${req.pathParams.petId} was listed (404 is the convention)` },
      equalTo: (req) => byId.get(req.pathParams.petId ?? ''),
    };
  },
};

/** The generation plan of one operation, given what was learned from the target. */
export function planOf(operationId: string, facts: Facts): OperationPlan {
  return (PLANS[operationId] ?? (() => plain(operationId)))(facts);
}

/** Which facts an operation's generator needs from the target. */
export function factsNeeded(operationId: string): ('totalPages' | 'pets')[] {
  if (operationId === 'listCustomers') return ['totalPages'];
  if (operationId === 'showPetById') return ['pets'];
  return [];
}
