// Loads the OpenAPI documents of schemas/ once. Paths are resolved from this module, not the
// working directory, so the suite works from any cwd.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { firstLine } from '../client/errors.ts';
import { parsedYaml } from './yaml-cache.ts';

export type Service = 'main' | 'petstore';

export const SERVICES: readonly Service[] = ['main', 'petstore'];

export type JsonObject = Record<string, unknown>;

export interface ContractDocument {
  service: Service;
  /** The id the document is registered under in ajv: the base of its internal `$ref`s. */
  id: string;
  file: string;
  doc: JsonObject;
}

const FILES: Record<Service, string> = {
  main: 'main-service.openapi.yaml',
  petstore: 'petstore.openapi.yaml',
};

const cache = new Map<Service, ContractDocument>();

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function documentFile(service: Service): string {
  return fileURLToPath(new URL(`../../schemas/${FILES[service]}`, import.meta.url));
}

export function loadDocument(service: Service): ContractDocument {
  const cached = cache.get(service);
  if (cached) return cached;
  const file = documentFile(service);
  let doc: unknown;
  try {
    doc = parsedYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = firstLine(error);
    throw new Error(`cannot load the OpenAPI document schemas/${FILES[service]}: ${reason}`);
  }
  if (!isObject(doc) || typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1')) {
    throw new Error(`schemas/${FILES[service]} is not an OpenAPI 3.1 document`);
  }
  const loaded: ContractDocument = {
    service,
    id: `https://conformance.invalid/schemas/${FILES[service]}`,
    file,
    doc,
  };
  cache.set(service, loaded);
  return loaded;
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The node a JSON pointer names in a document, or undefined. */
export function nodeAt(doc: JsonObject, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as JsonObject)[key];
  }
  return node;
}

/**
 * Follows internal `$ref`s of OpenAPI objects (responses, parameters) to the object they name,
 * returning it with its JSON pointer, so a schema inside can be handed to ajv by location.
 */
export function resolveRef(
  loaded: ContractDocument,
  node: unknown,
  pointer: string,
): { node: unknown; pointer: string } {
  const seen = new Set<string>();
  let current = { node, pointer };
  while (isObject(current.node) && typeof current.node.$ref === 'string') {
    const ref = current.node.$ref;
    if (!ref.startsWith('#/')) {
      throw new Error(`${loaded.service} document: only internal $refs are supported, found ${ref}`);
    }
    if (seen.has(ref)) throw new Error(`${loaded.service} document: $ref cycle at ${ref}`);
    seen.add(ref);
    const target = nodeAt(loaded.doc, ref.slice(1));
    if (target === undefined) throw new Error(`${loaded.service} document: unresolved $ref ${ref}`);
    current = { node: target, pointer: ref.slice(1) };
  }
  return current;
}
