// Builds a request for any operation of the OpenAPI documents, so generic checks (schema, auth,
// error body) cover a route added to schemas/ with no new test code.
import type { ApiRequest } from '../client/index.ts';
import type { TargetConfig } from '../config/index.ts';
import { buildOperationUrlPath, type OperationInfo } from '../contract/index.ts';

type Auth = ApiRequest['auth'];

/** Bodies the schema alone cannot make right: the token route needs the configured credentials. */
const BODIES: Record<string, (config: TargetConfig) => unknown> = {
  createToken: (config) => ({
    client_id: config.credentials.clientId,
    client_secret: config.credentials.clientSecret,
  }),
  // A fresh id far from seeded data, so repeated runs do not collide.
  createPets: () => ({
    id: 9_000_000_000 + Math.floor(Math.random() * 1_000_000_000),
    name: 'conformance-pet',
    status: 'available',
  }),
};

export function requestFor(
  op: OperationInfo,
  config: TargetConfig,
  auth: Auth,
  pathParams: Record<string, string> = {},
): ApiRequest {
  // A missing path parameter is an error (from the one path filler), never a made-up id.
  const path = buildOperationUrlPath(op, pathParams);
  const body = BODIES[op.operationId]?.(config);
  return {
    service: op.service,
    method: op.method.toUpperCase() as ApiRequest['method'],
    path,
    auth,
    renew: false,
    ...(body === undefined ? {} : { body }),
  };
}

/** The scheme an operation does not accept, if any: what a wrong-scheme check sends. */
export function refusedSchemes(op: OperationInfo): ('apiKey' | 'bearer')[] {
  if (op.security.length === 0) return [];
  return (['apiKey', 'bearer'] as const).filter((scheme) => !op.security.includes(scheme));
}

export function isProtected(op: OperationInfo): boolean {
  return op.security.length > 0;
}

/** The request with every value written by the check (ApiRequest.madeUp): its command sends them. */
export const madeUp = (req: ApiRequest): ApiRequest => ({ ...req, madeUp: true });
