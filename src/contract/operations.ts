// The operation index: every operation of the OpenAPI documents, in the form generic checks
// iterate over (a route added to schemas/ appears here with no code change).
import {
  type ContractDocument,
  isObject,
  type JsonObject,
  loadDocument,
  pointerSegment,
  resolveRef,
  SERVICES,
  type Service,
} from './documents.ts';

export type SecurityScheme = 'apiKey' | 'bearer';

export interface ParameterInfo {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  schema: unknown;
}

export interface OperationInfo {
  service: Service;
  operationId: string;
  /** Lower case, as in the document: 'get', 'post'. */
  method: string;
  /** As in the document: '/v1/customers', '/pets/{petId}'. */
  path: string;
  /** Alternatives, any one of which is accepted; [] = none shown. */
  security: SecurityScheme[];
  deprecated: boolean;
  /** Every documented response key, in document order: '200', '201', '422', '4XX', 'default'. */
  responses: string[];
  requestBodyRequired: boolean;
  parameters: ParameterInfo[];
  /** The rule ids of the operation's `x-rules`. */
  rules: string[];
  /** JSON pointer of the operation in its document. */
  pointer: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const PARAMETER_PLACES = new Set(['query', 'path', 'header', 'cookie']);

let index: readonly OperationInfo[] | undefined;
let byId: Map<string, OperationInfo> | undefined;

function fail(loaded: ContractDocument, where: string, problem: string): never {
  throw new Error(`${loaded.service} document, ${where}: ${problem}`);
}

/** One security requirement object -> the scheme it stands for ('apiKey' when all are API key headers). */
function schemeOf(loaded: ContractDocument, requirement: unknown, where: string): SecurityScheme {
  const schemes = isObject(loaded.doc.components) ? loaded.doc.components.securitySchemes : undefined;
  if (!isObject(requirement) || Object.keys(requirement).length === 0) {
    fail(loaded, where, 'an empty security requirement is not supported (use security: [])');
  }
  const kinds = Object.keys(requirement).map((name) => {
    const scheme = isObject(schemes) ? schemes[name] : undefined;
    if (!isObject(scheme)) fail(loaded, where, `security scheme ${name} is not defined`);
    if (scheme.type === 'apiKey' && scheme.in === 'header') return 'apiKey';
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return 'bearer';
    return fail(loaded, where, `security scheme ${name} is neither an API key header nor http bearer`);
  });
  const kind = kinds[0] as SecurityScheme;
  if (kinds.some((k) => k !== kind)) fail(loaded, where, 'a requirement mixes API key and bearer');
  return kind;
}

function securityOf(loaded: ContractDocument, operation: JsonObject, where: string): SecurityScheme[] {
  const requirements = operation.security ?? loaded.doc.security ?? [];
  if (!Array.isArray(requirements)) fail(loaded, where, 'security is not an array');
  const schemes = requirements.map((r, i) => schemeOf(loaded, r, `${where} security[${i}]`));
  return [...new Set(schemes)];
}

function parametersOf(
  loaded: ContractDocument,
  pathItem: JsonObject,
  operation: JsonObject,
  pointer: string,
): ParameterInfo[] {
  const collect = (list: unknown, at: string) =>
    (Array.isArray(list) ? list : []).map((entry, i) => {
      const { node } = resolveRef(loaded, entry, `${at}/parameters/${i}`);
      if (!isObject(node) || typeof node.name !== 'string' || !PARAMETER_PLACES.has(String(node.in))) {
        fail(loaded, `${at}/parameters/${i}`, 'a parameter needs a name and a valid in');
      }
      return {
        name: node.name,
        in: node.in as ParameterInfo['in'],
        required: node.required === true,
        schema: node.schema,
      };
    });
  // Operation-level parameters override path-level ones with the same name and place.
  const own = collect(operation.parameters, pointer);
  const inherited = collect(pathItem.parameters, pointer.replace(/\/[^/]+$/, '')).filter(
    (p) => !own.some((o) => o.name === p.name && o.in === p.in),
  );
  return [...inherited, ...own];
}

function buildIndex(): OperationInfo[] {
  const all: OperationInfo[] = [];
  for (const service of SERVICES) {
    const loaded = loadDocument(service);
    const paths = isObject(loaded.doc.paths) ? loaded.doc.paths : {};
    for (const [path, pathItem] of Object.entries(paths)) {
      if (!isObject(pathItem)) continue;
      for (const method of METHODS) {
        const operation = pathItem[method];
        if (!isObject(operation)) continue;
        const pointer = `/paths/${pointerSegment(path)}/${method}`;
        const where = `${method.toUpperCase()} ${path}`;
        if (typeof operation.operationId !== 'string') fail(loaded, where, 'no operationId');
        const body = resolveRef(loaded, operation.requestBody, `${pointer}/requestBody`).node;
        all.push({
          service,
          operationId: operation.operationId,
          method,
          path,
          security: securityOf(loaded, operation, where),
          deprecated: operation.deprecated === true,
          responses: Object.keys(isObject(operation.responses) ? operation.responses : {}),
          requestBodyRequired: isObject(body) && body.required === true,
          parameters: parametersOf(loaded, pathItem, operation, pointer),
          rules: Array.isArray(operation['x-rules']) ? operation['x-rules'].map(String) : [],
          pointer,
        });
      }
    }
  }
  const ids = new Set<string>();
  for (const op of all) {
    if (ids.has(op.operationId)) throw new Error(`operationId ${op.operationId} is not unique`);
    ids.add(op.operationId);
  }
  return all;
}

/** Every operation of both documents (built once; do not mutate). */
export function operations(): OperationInfo[] {
  index ??= Object.freeze(buildIndex());
  return [...index];
}

export function findOperation(operationId: string): OperationInfo {
  byId ??= new Map(operations().map((op) => [op.operationId, op]));
  const op = byId.get(operationId);
  if (!op) throw new Error(`unknown operationId ${operationId}`);
  return op;
}
