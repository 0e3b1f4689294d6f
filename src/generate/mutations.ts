// Variants of a valid request, read from the schema. Two kinds:
// - a break (`kind: 'break'`) breaks ONE constraint: a missing required field, a wrong type, a value
//   past a bound or outside an enum, and for a JSON body malformed JSON, another Content-Type, an
//   empty body, a body that is not an object. It names the constraint it breaks and that
//   constraint's trace (src/generate/trace.ts): refused when the spec shows it, tolerated when not.
// - an edge (`kind: 'edge'`) is what a schema-based generator sends and a careful one need not:
//   properties the schema does not list, integers beyond 2^53 and beyond int64, integers written
//   as 1e2, 007, 1.0 or -0, very long, non-ASCII and empty strings, a repeated query parameter. The
//   spec says nothing of any of them: they may be accepted or refused, but never answered with a
//   5xx (GNR-01), and a 2xx must still match the answer schema.
import { escapedBytes } from '../client/outgoing.ts';
import { isObject } from '../contract/documents.ts';
import type { GeneratedRequest } from './request.ts';
import type { RequestSchemas, Schema } from './schema.ts';
import { type Trace, traceOf } from './trace.ts';
import { integerBounds, typeOf } from './values.ts';

export interface Mutation {
  /** Stable name: 'query.limit:negative', 'body.name:missing', 'body:malformed-json'. */
  id: string;
  /** What is broken, for a report line. */
  description: string;
  kind: 'break' | 'edge';
  /** A break: the constraint it breaks ('body.name' 'required'), and where that comes from. */
  constraint?: { at: string; key: string; trace?: Trace };
  /** An edge the schema allows, in a JSON body: a write that accepts it must read back equal (GNR-04). */
  readBack?: boolean;
  apply(req: GeneratedRequest): GeneratedRequest;
}

/** The values a schema-based generator sends at the edges. */
export const EDGE_VALUES = {
  beyond2to53: '9007199254740993',
  beyondInt64: '9223372036854775808',
  notations: [
    ['1e2', 'written as 1e2'],
    ['007', 'written with leading zeros (007)'],
    ['1.0', 'written as 1.0'],
    ['-0', 'written as -0'],
  ],
  longString: 'Rex the very long name '.repeat(435).slice(0, 10_000),
  longParameter: 'p'.repeat(4_000),
  nonAscii: 'Zoë Ñandú 名前 🐾 Ωmega',
  unlisted: 'x_unlisted_property',
  // Every kind of character at once, so one request a field tries them all: quotes, a backslash,
  // percent signs (one that reads as an escape), control characters, non-ASCII.
  characters: `O'Brien "Rex" \\ 100% %41 tab\t nl\n nul\u0000 esc\u001b del\u007f Zoë`,
  // The same kinds as escapes on the wire (a query or path value), with two that decode to no
  // UTF-8 (%FF, %C3%28): a server must decode them without a 5xx.
  escapedCharacters: '%22%27%5C%25%09%00%7F%C3%A9%FF%C3%28',
  // A JSON string with lone surrogates (\ud800 escapes): JSON, but no Unicode text (RFC 8259 §8.2).
  loneSurrogates: 'Rex \ud800 and \udc00',
  // Bytes that are no UTF-8 in a body: FF never starts a sequence, C3 needs a continuation.
  notUtf8: [0xff, 0xc3, 0x28],
} as const;

function withQuery(
  req: GeneratedRequest,
  name: string,
  value: string | string[] | undefined,
): GeneratedRequest {
  const query = { ...req.query };
  if (value === undefined) delete query[name];
  else query[name] = value;
  return { ...req, query };
}

function parameterMutations(param: RequestSchemas['parameters'][number]): Mutation[] {
  if (param.in !== 'query' && param.in !== 'path') return []; // headers are auth, checked apart
  const at = `${param.in}.${param.name}`;
  const schema = param.schema;
  const out: Mutation[] = [];
  const put = (req: GeneratedRequest, value: string | string[] | undefined): GeneratedRequest =>
    param.in === 'query'
      ? withQuery(req, param.name, value)
      : { ...req, pathParams: { ...req.pathParams, [param.name]: String(value ?? '') } };
  const broken = (kind: string, key: string, description: string, value: string | undefined): Mutation => ({
    id: `${at}:${kind}`,
    description: `${param.name} ${description}`,
    kind: 'break',
    constraint: { at, key, trace: traceOf(schema, key) },
    apply: (req) => put(req, value),
  });
  const edge = (kind: string, description: string, value: string | string[]): Mutation => ({
    id: `${at}:${kind}`,
    description: `${param.name} ${description}`,
    kind: 'edge',
    apply: (req) => put(req, value),
  });
  const type = typeOf(schema);
  if (param.in === 'query') {
    if (param.required) out.push(broken('missing', 'required', 'left out', undefined));
    if (type === 'integer') {
      out.push(
        broken('not-a-number', 'type', 'is not a number (abc)', 'abc'),
        broken('decimal', 'type', 'is not an integer (1.5)', '1.5'),
        // Near misses: an integer with a letter after, a sign with no digits, a sign inside. A
        // server that reads the leading digits (parseInt) or tests a pattern only at one end takes them.
        broken('digits-then-letter', 'type', 'is not an integer (1x)', '1x'),
        broken('negative-then-letter', 'type', 'is not an integer (-1x)', '-1x'),
        broken('sign-without-digits', 'type', 'is not an integer (-x)', '-x'),
        broken('sign-inside', 'type', 'is not an integer (x-1)', 'x-1'),
        broken('empty', 'empty', 'is empty', ''),
      );
      const { min, max } = integerBounds(schema);
      if (min !== undefined)
        out.push(broken('below-minimum', 'minimum', `is below its minimum ${min}`, String(min - 1)));
      if (min === undefined || min >= 0) out.push(broken('negative', 'negative', 'is negative (-1)', '-1'));
      if (max !== undefined)
        out.push(broken('above-maximum', 'maximum', `is above its maximum ${max}`, String(max + 1)));
      out.push(
        edge('beyond-2^53', `is beyond 2^53 (${EDGE_VALUES.beyond2to53})`, EDGE_VALUES.beyond2to53),
        edge('beyond-int64', `is beyond int64 (${EDGE_VALUES.beyondInt64})`, EDGE_VALUES.beyondInt64),
        ...EDGE_VALUES.notations.map(([text, how]) => edge(`notation-${text}`, `is ${how}`, text)),
      );
    }
    if (Array.isArray(schema.enum))
      out.push(broken('outside-enum', 'enum', 'is outside its enum', 'not-in-the-enum'));
    // Two values the schema allows, so only the repetition is new.
    out.push(edge('repeated', 'is given twice', type === 'integer' ? ['1', '2'] : ['a', 'b']));
  }
  // Quotes, a backslash, percent signs, control characters and escapes that are no UTF-8, written
  // with their escapes as they go on the wire: not an integer, refused; in a string, any answer
  // but a 5xx.
  const characters = `has quotes, a backslash, a %, control characters and escapes that are no UTF-8 (${EDGE_VALUES.escapedCharacters})`;
  const escaped = (req: GeneratedRequest): GeneratedRequest =>
    param.in === 'query'
      ? {
          ...withQuery(req, param.name, undefined),
          escaped: { ...req.escaped, query: `${param.name}=${EDGE_VALUES.escapedCharacters}` },
        }
      : {
          ...req,
          escaped: {
            ...req.escaped,
            path: { ...req.escaped?.path, [param.name]: EDGE_VALUES.escapedCharacters },
          },
        };
  if (type === 'integer') {
    out.push({
      id: `${at}:characters`,
      description: `${param.name} ${characters}`,
      kind: 'break',
      constraint: { at, key: 'type', trace: traceOf(schema, 'type') },
      apply: escaped,
    });
  } else if (type === 'string' && !Array.isArray(schema.enum)) {
    out.push({
      id: `${at}:characters`,
      description: `${param.name} ${characters}`,
      kind: 'edge',
      apply: escaped,
    });
  }
  if (type === 'string' && !Array.isArray(schema.enum)) {
    out.push(
      edge('long', `is ${EDGE_VALUES.longParameter.length} characters long`, EDGE_VALUES.longParameter),
      edge('non-ascii', `is not ASCII (${EDGE_VALUES.nonAscii})`, EDGE_VALUES.nonAscii),
      // An empty path segment names another path ('/pets/'): only a query value may be empty.
      ...(param.in === 'query' ? [edge('empty-string', 'is an empty string', '')] : []),
    );
  }
  return out;
}

function withField(req: GeneratedRequest, name: string, value: unknown, remove = false): GeneratedRequest {
  const body = bodyObject(req);
  if (remove) delete body[name];
  else body[name] = value;
  return { ...req, body: { kind: 'json', value: body } };
}

const bodyObject = (req: GeneratedRequest): Record<string, unknown> =>
  req.body?.kind === 'json' && isObject(req.body.value) ? { ...req.body.value } : {};

const fieldOf = (req: GeneratedRequest, name: string): unknown =>
  req.body?.kind === 'json' && isObject(req.body.value) ? req.body.value[name] : undefined;

/** The JSON body with one field's value written as raw JSON text (numbers JavaScript cannot hold or write). */
function withFieldText(req: GeneratedRequest, name: string, text: string): GeneratedRequest {
  const mark = '\u0000field-text\u0000';
  const json = JSON.stringify({ ...bodyObject(req), [name]: mark });
  return {
    ...req,
    body: { kind: 'raw', text: json.replace(JSON.stringify(mark), text), contentType: 'application/json' },
  };
}

/** Values of another JSON type than the schema's; some keep the original inside (["id"]). */
function wrongTypes(schema: Schema): { kind: string; key: string; make: (original: unknown) => unknown }[] {
  const type = typeOf(schema);
  const all = [
    // "7" for an integer looks like one: reading it as 7 is a choice the spec leaves open.
    {
      kind: 'string',
      key: type === 'integer' ? 'integer-looking-string' : 'type',
      make: (o: unknown) => String(o ?? 'text'),
    },
    { kind: 'number', key: 'type', make: () => 42 },
    { kind: 'decimal', key: 'type', make: (o: unknown) => (typeof o === 'number' ? o + 0.5 : 1.5) },
    { kind: 'boolean', key: 'type', make: () => true },
    { kind: 'null', key: 'type', make: () => null },
    { kind: 'array', key: 'type', make: (o: unknown) => [o] },
    { kind: 'object', key: 'type', make: (o: unknown) => ({ value: o }) },
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

function fieldMutations(name: string, schema: Schema, object: Schema, required: boolean): Mutation[] {
  const at = `body.${name}`;
  const out: Mutation[] = [];
  const broken = (
    kind: string,
    key: string,
    description: string,
    apply: Mutation['apply'],
    node = schema,
  ): Mutation => ({
    id: `${at}:${kind}`,
    description: `${name} ${description}`,
    kind: 'break',
    // `required` is the object's keyword: its trace sits on the object.
    constraint: { at, key, trace: traceOf(node, key) },
    apply,
  });
  const edge = (kind: string, description: string, apply: Mutation['apply'], readBack = false): Mutation => ({
    id: `${at}:${kind}`,
    description: `${name} ${description}`,
    kind: 'edge',
    ...(readBack ? { readBack } : {}),
    apply,
  });
  if (required)
    out.push(
      broken('missing', 'required', 'left out', (req) => withField(req, name, undefined, true), object),
    );
  for (const wrong of wrongTypes(schema)) {
    out.push(
      broken(`wrong-type-${wrong.kind}`, wrong.key, `sent as ${wrong.kind}`, (req) =>
        withField(req, name, wrong.make(fieldOf(req, name))),
      ),
    );
  }
  if (Array.isArray(schema.enum)) {
    const outside = schema.enum.includes('adopted') ? 'not-in-the-enum' : 'adopted';
    out.push(
      broken('outside-enum', 'enum', `outside its enum (${outside})`, (req) => withField(req, name, outside)),
    );
  }
  const type = typeOf(schema);
  if (type === 'integer') {
    const { min, max } = integerBounds(schema);
    if (min !== undefined)
      out.push(broken('below-minimum', 'minimum', `below ${min}`, (req) => withField(req, name, min - 1)));
    if (max !== undefined)
      out.push(broken('above-maximum', 'maximum', `above ${max}`, (req) => withField(req, name, max + 1)));
    out.push(
      edge('beyond-2^53', `beyond 2^53 (${EDGE_VALUES.beyond2to53})`, (req) =>
        withFieldText(req, name, EDGE_VALUES.beyond2to53),
      ),
      edge('beyond-int64', `beyond int64 (${EDGE_VALUES.beyondInt64})`, (req) =>
        withFieldText(req, name, EDGE_VALUES.beyondInt64),
      ),
      // 007 is not JSON: a body keeps to the notations JSON has.
      ...EDGE_VALUES.notations
        .filter(([text]) => text !== '007')
        .map(([text, how]) => edge(`notation-${text}`, how, (req) => withFieldText(req, name, text))),
    );
  }
  if (typeof schema.maxLength === 'number') {
    const long = 'x'.repeat(schema.maxLength + 1);
    out.push(
      broken('too-long', 'maxLength', `longer than ${schema.maxLength}`, (req) => withField(req, name, long)),
    );
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    const short = 'x'.repeat(schema.minLength - 1);
    out.push(
      broken('too-short', 'minLength', `shorter than ${schema.minLength}`, (req) =>
        withField(req, name, short),
      ),
    );
  }
  if (type === 'string' && !Array.isArray(schema.enum)) {
    out.push(
      // Strings the schema allows: accepted, they read back equal.
      edge(
        'long',
        `${EDGE_VALUES.longString.length} characters long`,
        (req) => withField(req, name, EDGE_VALUES.longString),
        true,
      ),
      edge(
        'non-ascii',
        `not ASCII (${EDGE_VALUES.nonAscii})`,
        (req) => withField(req, name, EDGE_VALUES.nonAscii),
        true,
      ),
      edge('empty-string', 'an empty string', (req) => withField(req, name, ''), true),
      edge(
        'characters',
        `with quotes, a backslash, % signs, control characters and non-ASCII (${JSON.stringify(EDGE_VALUES.characters)})`,
        (req) => withField(req, name, EDGE_VALUES.characters),
        true,
      ),
    );
  }
  return out;
}

function textOf(req: GeneratedRequest): string {
  return req.body?.kind === 'json' ? JSON.stringify(req.body.value) : (req.body?.text ?? '{}');
}

function bodyMutations(body: NonNullable<RequestSchemas['body']>): Mutation[] {
  const schema = body.schema;
  const out: Mutation[] = [];
  const whole = (
    kind: string,
    key: string,
    description: string,
    apply: Mutation['apply'],
    node = body.node,
  ): Mutation => ({
    id: `body:${kind}`,
    description,
    kind: 'break',
    constraint: { at: 'body', key, trace: traceOf(node, key) },
    apply,
  });
  out.push(
    whole('malformed-json', 'json', 'the body is not valid JSON (cut short)', (req) => ({
      ...req,
      body: { kind: 'raw', text: textOf(req).slice(0, -1), contentType: 'application/json' },
    })),
    whole('wrong-content-type', 'media-type', 'the body is sent as text/plain', (req) => ({
      ...req,
      body: { kind: 'raw', text: textOf(req), contentType: 'text/plain' },
    })),
    whole('empty', 'required', 'the body is empty', (req) => ({
      ...req,
      body: { kind: 'raw', text: '', contentType: 'application/json' },
    })),
  );
  if (typeOf(schema) === 'object') {
    out.push(
      whole(
        'not-an-object',
        'type',
        'the body is a JSON array, not an object',
        (req) => ({
          ...req,
          body: { kind: 'json', value: [req.body?.kind === 'json' ? req.body.value : {}] },
        }),
        schema,
      ),
    );
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    for (const [name, sub] of Object.entries(properties)) {
      out.push(...fieldMutations(name, isObject(sub) ? sub : {}, schema, required.has(name)));
    }
    // Lone surrogates in the first free text field: what they read back as is unpredictable (RFC
    // 8259 §8.2), so only "no 5xx" and a schema-valid 2xx are asked.
    const text = Object.entries(properties).find(
      ([, sub]) => isObject(sub) && typeOf(sub) === 'string' && !Array.isArray(sub.enum),
    )?.[0];
    if (text !== undefined) {
      // The same field holding bytes that are no UTF-8 (FF, then C3 without its continuation): a
      // body that is no JSON text (RFC 8259 §8.1), sent as bytes; any answer but a 5xx.
      out.push({
        id: 'body:not-utf8',
        description: `the body's bytes are no UTF-8 (${text} holds the bytes FF C3 28)`,
        kind: 'edge',
        apply: (req) => {
          const mark = '\u0000not-utf8\u0000';
          const json = JSON.stringify({ ...bodyObject(req), [text]: `Rex ${mark}` });
          return {
            ...req,
            body: {
              kind: 'raw',
              text: json.replace(
                JSON.stringify(mark).slice(1, -1),
                escapedBytes(Uint8Array.from(EDGE_VALUES.notUtf8)),
              ),
              contentType: 'application/json',
            },
          };
        },
      });
      out.push({
        id: 'body:lone-surrogates',
        description: `${text} holds lone surrogates (${JSON.stringify(EDGE_VALUES.loneSurrogates)})`,
        kind: 'edge',
        apply: (req) => withField(req, text, EDGE_VALUES.loneSurrogates),
      });
    }
    if (schema.additionalProperties === false) {
      out.push(
        whole(
          'extra-property',
          'additionalProperties',
          'the body has a property the schema forbids',
          (req) => withField(req, EDGE_VALUES.unlisted, 'x'),
          schema,
        ),
      );
    } else {
      out.push({
        id: 'body:unlisted-property',
        description: `the body has a property the schema does not list (${EDGE_VALUES.unlisted})`,
        kind: 'edge',
        // Only the listed fields must read back: the unlisted one may be stored or dropped.
        readBack: true,
        apply: (req) => withField(req, EDGE_VALUES.unlisted, 'value'),
      });
    }
  }
  return out;
}

/** Every break and edge of an operation's request. */
export function mutationsOf(schemas: RequestSchemas): Mutation[] {
  return [
    ...schemas.parameters.flatMap(parameterMutations),
    ...(schemas.body ? bodyMutations(schemas.body) : []),
  ];
}
