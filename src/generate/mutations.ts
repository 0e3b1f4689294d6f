// Invalid variants of a valid request, one broken constraint each, read from the schema: a
// missing required field or parameter, a wrong type, a value past each bound, a value outside an
// enum, and for a JSON body: malformed JSON, a wrong Content-Type, an empty body, a body that is
// not an object.
import { isObject } from '../contract/documents.ts';
import type { GeneratedRequest } from './request.ts';
import type { RequestSchemas, Schema } from './schema.ts';
import { integerBounds, typeOf } from './values.ts';

export interface Mutation {
  /** Stable name: 'query.limit:negative', 'body.name:missing', 'body:malformed-json'. */
  id: string;
  /** What is broken, for a report line. */
  description: string;
  apply(req: GeneratedRequest): GeneratedRequest;
}

function withQuery(req: GeneratedRequest, name: string, value: string | undefined): GeneratedRequest {
  const query = { ...req.query };
  if (value === undefined) delete query[name];
  else query[name] = value;
  return { ...req, query };
}

function parameterMutations(param: RequestSchemas['parameters'][number]): Mutation[] {
  if (param.in !== 'query') return []; // path values are strings by the documents; headers are auth
  const at = `query.${param.name}`;
  const set = (kind: string, description: string, value: string | undefined): Mutation => ({
    id: `${at}:${kind}`,
    description: `${param.name} ${description}`,
    apply: (req) => withQuery(req, param.name, value),
  });
  const out: Mutation[] = [];
  if (param.required) out.push(set('missing', 'left out', undefined));
  const schema = param.schema;
  if (typeOf(schema) === 'integer') {
    out.push(
      set('not-a-number', 'is not a number (abc)', 'abc'),
      set('decimal', 'is not an integer (1.5)', '1.5'),
      set('empty', 'is empty', ''),
    );
    const { min, max } = integerBounds(schema);
    if (min !== undefined) out.push(set('below-minimum', `is below its minimum ${min}`, String(min - 1)));
    if (min === undefined || min >= 0) out.push(set('negative', 'is negative (-1)', '-1'));
    if (max !== undefined) {
      out.push(
        set('above-maximum', `is above its maximum ${max}`, String(max + 1)),
        set('overflow', 'is far above its maximum (does not fit 64 bits)', '99999999999999999999'),
      );
    }
  }
  if (Array.isArray(schema.enum)) out.push(set('outside-enum', 'is outside its enum', 'not-in-the-enum'));
  return out;
}

function withField(req: GeneratedRequest, name: string, value: unknown, remove = false): GeneratedRequest {
  const body = req.body?.kind === 'json' && isObject(req.body.value) ? { ...req.body.value } : {};
  if (remove) delete body[name];
  else body[name] = value;
  return { ...req, body: { kind: 'json', value: body } };
}

const fieldOf = (req: GeneratedRequest, name: string): unknown =>
  req.body?.kind === 'json' && isObject(req.body.value) ? req.body.value[name] : undefined;

/** Values of another JSON type than the schema's; some keep the original inside (["id"]). */
function wrongTypes(schema: Schema): { kind: string; make: (original: unknown) => unknown }[] {
  const type = typeOf(schema);
  const all = [
    { kind: 'string', make: (o: unknown) => String(o ?? 'text') },
    { kind: 'number', make: () => 42 },
    { kind: 'decimal', make: (o: unknown) => (typeof o === 'number' ? o + 0.5 : 1.5) },
    { kind: 'boolean', make: () => true },
    { kind: 'null', make: () => null },
    { kind: 'array', make: (o: unknown) => [o] },
    { kind: 'object', make: (o: unknown) => ({ value: o }) },
  ];
  const allowed: Record<string, string[]> = {
    integer: ['number'],
    number: ['number', 'decimal'],
    string: ['string'],
    boolean: ['boolean'],
    array: ['array'],
    object: ['object'],
  };
  // A decimal is a wrong type only where an integer is asked; elsewhere `number` says it.
  return all.filter(
    (w) => !(allowed[type ?? ''] ?? []).includes(w.kind) && (w.kind !== 'decimal' || type === 'integer'),
  );
}

function fieldMutations(name: string, schema: Schema, required: boolean): Mutation[] {
  const at = `body.${name}`;
  const out: Mutation[] = [];
  const mutation = (kind: string, description: string, apply: Mutation['apply']): Mutation => ({
    id: `${at}:${kind}`,
    description: `${name} ${description}`,
    apply,
  });
  if (required) out.push(mutation('missing', 'left out', (req) => withField(req, name, undefined, true)));
  for (const wrong of wrongTypes(schema)) {
    out.push(
      mutation(`wrong-type-${wrong.kind}`, `sent as ${wrong.kind}`, (req) =>
        withField(req, name, wrong.make(fieldOf(req, name))),
      ),
    );
  }
  if (Array.isArray(schema.enum)) {
    const outside = schema.enum.includes('adopted') ? 'not-in-the-enum' : 'adopted';
    out.push(
      mutation('outside-enum', `outside its enum (${outside})`, (req) => withField(req, name, outside)),
    );
  }
  if (typeOf(schema) === 'integer') {
    const { min, max } = integerBounds(schema);
    if (min !== undefined)
      out.push(mutation('below-minimum', `below ${min}`, (req) => withField(req, name, min - 1)));
    if (max !== undefined)
      out.push(mutation('above-maximum', `above ${max}`, (req) => withField(req, name, max + 1)));
  }
  if (typeof schema.maxLength === 'number') {
    const long = 'x'.repeat(schema.maxLength + 1);
    out.push(mutation('too-long', `longer than ${schema.maxLength}`, (req) => withField(req, name, long)));
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    const short = 'x'.repeat(schema.minLength - 1);
    out.push(mutation('too-short', `shorter than ${schema.minLength}`, (req) => withField(req, name, short)));
  }
  return out;
}

function textOf(req: GeneratedRequest): string {
  return req.body?.kind === 'json' ? JSON.stringify(req.body.value) : (req.body?.text ?? '{}');
}

function bodyMutations(body: NonNullable<RequestSchemas['body']>): Mutation[] {
  const schema = body.schema;
  const out: Mutation[] = [];
  const whole = (kind: string, description: string, apply: Mutation['apply']): Mutation => ({
    id: `body:${kind}`,
    description,
    apply,
  });
  out.push(
    whole('malformed-json', 'the body is not valid JSON (cut short)', (req) => ({
      ...req,
      body: { kind: 'raw', text: textOf(req).slice(0, -1), contentType: 'application/json' },
    })),
    whole('wrong-content-type', 'the body is sent as text/plain', (req) => ({
      ...req,
      body: { kind: 'raw', text: textOf(req), contentType: 'text/plain' },
    })),
    whole('empty', 'the body is empty', (req) => ({
      ...req,
      body: { kind: 'raw', text: '', contentType: 'application/json' },
    })),
  );
  if (typeOf(schema) === 'object') {
    out.push(
      whole('not-an-object', 'the body is a JSON array, not an object', (req) => ({
        ...req,
        body: { kind: 'json', value: [req.body?.kind === 'json' ? req.body.value : {}] },
      })),
    );
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    for (const [name, sub] of Object.entries(properties)) {
      out.push(...fieldMutations(name, isObject(sub) ? sub : {}, required.has(name)));
    }
    if (schema.additionalProperties === false) {
      out.push(
        whole('extra-property', 'the body has a property the schema forbids', (req) =>
          withField(req, 'unexpected_property', 'x'),
        ),
      );
    }
  }
  return out;
}

/** Every single-constraint break of an operation's request. */
export function mutationsOf(schemas: RequestSchemas): Mutation[] {
  return [
    ...schemas.parameters.flatMap(parameterMutations),
    ...(schemas.body ? bodyMutations(schemas.body) : []),
  ];
}
