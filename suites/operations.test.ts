// Generic checks derived from the OpenAPI documents: every operation, called as the spec allows,
// answers 2xx JSON that validates against its schema. A route added to schemas/ is checked here
// with no new test code.

import { expectJsonBody, expectStatus, expectValid, is2xx } from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { requestFor } from '../src/checks/operation-requests.ts';
import type { ApiClient } from '../src/client/index.ts';
import type { GuardedAction } from '../src/config/index.ts';
import { type OperationInfo, operations, validateResponse } from '../src/contract/index.ts';

/** Path parameters that must name something that exists. */
const PATH_PARAMS: Record<string, (client: ApiClient) => Promise<Record<string, string>>> = {
  showPetById: async (client) => {
    const list = await client.request({
      service: 'petstore',
      method: 'GET',
      path: 'pets',
      query: { limit: 1 },
      auth: 'none',
    });
    const [first] = Array.isArray(list.body) ? (list.body as { id?: unknown }[]) : [];
    return { petId: String(first?.id ?? '1') };
  },
};

function guardsOf(op: OperationInfo): GuardedAction[] {
  const guards: GuardedAction[] = op.service === 'petstore' ? ['petstore'] : [];
  if (op.method.toUpperCase() !== 'GET' && op.operationId !== 'createToken') guards.push('write');
  return guards;
}

area('operations', () => {
  for (const op of operations()) {
    const route = `${op.method.toUpperCase()} ${op.path}`;
    check(
      {
        id: `GEN-${op.operationId}`,
        title: `${route} answers 2xx JSON matching its schema`,
        rules: ['GEN-01'],
        guarded: guardsOf(op),
      },
      async (t) => {
        const params = (await PATH_PARAMS[op.operationId]?.(t.client)) ?? {};
        // The API key where the route takes it (customers: required by its shown permission), else
        // the bearer token: a route that takes a bearer token only "as the route allows" may refuse it.
        const scheme = op.security.includes('apiKey') ? 'apiKey' : op.security.length ? 'bearer' : 'none';
        const res = await t.client.request({ ...requestFor(op, t.config, scheme, params), renew: true });
        expectStatus(res, is2xx, route);
        // An empty body passes only where the document shows none for this status (createPets'
        // 201); anywhere else the answer must be JSON matching its schema.
        if (res.text.length === 0 && validateResponse(op.operationId, res.status, undefined).valid) return;
        expectValid(
          validateResponse(op.operationId, res.status, expectJsonBody(res, route)),
          `the answer of ${route}`,
        );
      },
    );
  }
});
