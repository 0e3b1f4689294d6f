// The request side of the contract: each operation's parameter and body schemas, with every
// internal $ref replaced by what it names, so the generators read plain JSON Schema.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isObject, type JsonObject, loadDocument, nodeAt, resolveRef } from '../contract/documents.ts';
import { findOperation, type OperationInfo } from '../contract/index.ts';

export type Schema = JsonObject;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const MAX_DEPTH = 32;

/** A copy of the schema with internal $refs inlined (the documents have no recursive schemas). */
export function inline(doc: JsonObject, node: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new Error('schema nesting too deep (a recursive $ref?)');
  if (Array.isArray(node)) return node.map((n) => inline(doc, n, depth + 1));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    if (!node.$ref.startsWith('#/')) throw new Error(`only internal $refs are supported, found ${node.$ref}`);
    const { $ref: _ref, ...siblings } = node;
    const target = inline(doc, nodeAt(doc, node.$ref.slice(1)), depth + 1);
    return isObject(target) ? { ...target, ...(inline(doc, siblings, depth + 1) as JsonObject) } : target;
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(doc, v, depth + 1)]));
}

export interface RequestSchemas {
  op: OperationInfo;
  /** Each parameter's schema by place and name. */
  parameters: { name: string; in: string; required: boolean; schema: Schema }[];
  /** The JSON body's schema, when the operation takes one; `node` is the requestBody itself (its x-trace). */
  body?: { required: boolean; schema: Schema; node: Schema };
}

const cache = new Map<string, RequestSchemas>();

export function requestSchemas(operationId: string): RequestSchemas {
  const hit = cache.get(operationId);
  if (hit) return hit;
  const op = findOperation(operationId);
  const loaded = loadDocument(op.service);
  const operation = nodeAt(loaded.doc, op.pointer);
  const bodyNode = isObject(operation)
    ? resolveRef(loaded, operation.requestBody, `${op.pointer}/requestBody`).node
    : undefined;
  const content = isObject(bodyNode) && isObject(bodyNode.content) ? bodyNode.content : undefined;
  const json = content?.['application/json'];
  const result: RequestSchemas = {
    op,
    parameters: op.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      schema: (inline(loaded.doc, p.schema) ?? {}) as Schema,
    })),
    ...(isObject(json) && isObject(json.schema)
      ? {
          body: {
            required: op.requestBodyRequired,
            schema: inline(loaded.doc, json.schema) as Schema,
            node: bodyNode as Schema,
          },
        }
      : {}),
  };
  cache.set(operationId, result);
  return result;
}

let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<Schema, ValidateFunction>();

/** Whether a value honours a request schema (self-tests: generated input against the document). */
export function honours(schema: Schema, value: unknown): boolean {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) === true;
}

/** A query or path value as sent (text), read back as the schema's type, for validation. */
export function typedParameter(schema: Schema, text: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) {
    return Number(text);
  }
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
