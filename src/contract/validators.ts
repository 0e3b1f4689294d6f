// ajv validators compiled from the OpenAPI documents: the documents are registered whole under
// their ids and each validator is a `$ref` into them, so internal refs resolve as written and no
// shape is written twice. Compiled lazily, once per location.
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { isJsonMediaType } from '../../common/media-type.ts';
import { exactJsonText } from '../client/exact-json.ts';
import {
  isObject,
  loadDocument,
  nodeAt,
  pointerSegment,
  resolveRef,
  SERVICES,
  type Service,
} from './documents.ts';
import { findOperation } from './operations.ts';
import { compilerKey, keepValidator, keptValidator } from './validator-cache.ts';

export type Validation = { valid: true } | { valid: false; errors: string[] };

// strict off: the documents carry OpenAPI keywords (x-rules, example, discriminator, ...) and
// their non-schema parts (paths, components) are traversed only through $refs. code.source: the
// generated code is kept (validator-cache.ts); it changes nothing of how a body is judged.
export const AJV_OPTIONS = { allErrors: true, strict: false, code: { source: true } } as const;

// Loaded only when a validator is not kept: ajv's own loading is a third of compiling.
const requireHere = createRequire(import.meta.url);

let ajv: Ajv2020 | undefined;
let key: string | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv) return ajv;
  const { Ajv2020: Ajv } = requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS: its export is the plugin itself.
  const addFormats = requireHere('ajv-formats') as typeof addFormatsModule.default;
  const created = new Ajv(AJV_OPTIONS);
  addFormats(created);
  for (const service of SERVICES) {
    const loaded = loadDocument(service);
    created.addSchema(loaded.doc, loaded.id);
  }
  ajv = created;
  return created;
}

function compilerKeyOnce(): string {
  key ??= compilerKey(
    SERVICES.map((service) => loadDocument(service).doc),
    AJV_OPTIONS,
  );
  return key;
}

function validatorAt(service: Service, pointer: string): ValidateFunction {
  const ref = `${loadDocument(service).id}#${pointer}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = keptValidator(compilerKeyOnce(), ref) ?? compileAndKeep(ref);
    compiled.set(ref, validate);
  }
  return validate;
}

function compileAndKeep(ref: string): ValidateFunction {
  const created = instance();
  const validate = created.compile({ $ref: ref });
  try {
    const { default: standaloneCode } = requireHere('ajv/dist/standalone/index.js') as {
      default: (ajv: Ajv2020, validate: ValidateFunction) => string;
    };
    keepValidator(compilerKeyOnce(), ref, standaloneCode(created, validate));
  } catch {
    // code ajv cannot write out: judged by the compiled one, kept by no one
  }
  return validate;
}

/**
 * The offending value, whole: it is the target's text, and a cut here would come before the
 * secrets are redacted (a secret cut at 40 characters is no longer recognised). The failure's
 * sinks cut it after redaction (src/checks/failure.ts).
 */
function shown(value: unknown): string {
  return exactJsonText(value) ?? String(value);
}

// ajv gives the offending value only in verbose mode; looking it up costs nothing when valid.
function valueAt(body: unknown, instancePath: string): unknown {
  return instancePath === '' ? body : nodeAt({ body }, `/body${instancePath}`);
}

/** One line per problem, led by the JSON pointer of the offending value. */
function describe(error: ErrorObject, body: unknown): string {
  const at = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${error.instancePath}/${String(params.missingProperty)} is required`;
    case 'enum':
      return `${at} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')} (got ${shown(valueAt(body, error.instancePath))})`;
    case 'format':
      return `${at} must be a ${String(params.format)} (got ${shown(valueAt(body, error.instancePath))})`;
    case 'type':
      return `${at} must be ${Array.isArray(params.type) ? params.type.join(' or ') : String(params.type)}`;
    default:
      return `${at} ${error.message ?? `fails ${error.keyword}`}`;
  }
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * The body as ajv can judge it, int64 on the exact value: an exact integer (a bigint, from the
 * client's lossless reader) within int64 becomes its double (still an integer); one beyond int64
 * becomes 0.5, which no integer schema takes (2^63 would round to a double that looks in range).
 */
function judgeable(value: unknown): unknown {
  if (typeof value === 'bigint') {
    // Beyond int64: no integer (ajv-formats checks no int64 bound of its own).
    if (value > INT64_MAX || value < INT64_MIN) return 0.5;
    return Number(value);
  }
  if (Array.isArray(value)) return value.map(judgeable);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, judgeable(v)]));
  return value;
}

function holdsBigint(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(holdsBigint);
  return isObject(value) && Object.values(value).some(holdsBigint);
}

function run(validate: ValidateFunction, body: unknown): Validation {
  // Copied only when it holds an exact integer (rare): most bodies are judged as they are.
  if (validate(holdsBigint(body) ? judgeable(body) : body)) return { valid: true };
  const errors = [...new Set((validate.errors ?? []).map((e) => describe(e, body)))];
  return { valid: false, errors: errors.length ? errors : ['does not match the schema'] };
}

/** The response entry documented for a status: the exact code, then its range ('4XX'), then 'default'. */
export function responseKeyFor(responses: readonly string[], status: number): string | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    responses.find((k) => k === exact) ??
    responses.find((k) => k.toUpperCase() === range) ??
    responses.find((k) => k === 'default')
  );
}

export function validateResponse(operationId: string, status: number, body: unknown): Validation {
  const op = findOperation(operationId);
  const key = responseKeyFor(op.responses, status);
  if (key === undefined) {
    return { valid: false, errors: [`status ${status} is not a documented response of ${operationId}`] };
  }
  const loaded = loadDocument(op.service);
  const operation = nodeAt(loaded.doc, op.pointer);
  const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
  const entry = resolveRef(loaded, responses[key], `${op.pointer}/responses/${pointerSegment(key)}`);
  const content = isObject(entry.node) ? entry.node.content : undefined;
  const media = isObject(content) ? Object.keys(content).find((type) => isJsonMediaType(type)) : undefined;
  // No body shown (e.g. 201 of createPets): whatever the server sends is not the spec's concern.
  if (media === undefined || !isObject(content) || !isObject(content[media])) return { valid: true };
  if (!('schema' in content[media])) return { valid: true };
  if (body === undefined) return { valid: false, errors: [`/ a JSON body is expected for ${status}`] };
  return run(validatorAt(op.service, `${entry.pointer}/content/${pointerSegment(media)}/schema`), body);
}

/** Any schema of `components/schemas` of a document. */
export function validateComponent(service: Service, name: string, body: unknown): Validation {
  const schemas = loadDocument(service).doc.components;
  if (!isObject(schemas) || !isObject(schemas.schemas) || !(name in schemas.schemas)) {
    throw new Error(`the ${service} document has no schema named ${name}`);
  }
  return run(validatorAt(service, `/components/schemas/${pointerSegment(name)}`), body);
}

export const validateErrorBody = (body: unknown): Validation => validateComponent('main', 'ErrorBody', body);
export const validatePet = (body: unknown): Validation => validateComponent('petstore', 'Pet', body);
