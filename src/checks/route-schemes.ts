// Which schemes a route takes in this run. GET /v1/customers takes "API key or bearer token as the
// route allows": the API key always (its shown permission, "administer customers (read, ...)"), a
// bearer token only where the route allows it (the token's shown permissions name no customers).
// CUSTOMERS_AUTH says it for a target; unset, it is learned: a bearer token refused with 401 or
// 403 and the error body, while GET /v1/user/me (bearer only) takes the same token, is the route's
// choice. Any other answer counts as taken, so the checks that use the token judge it: detection
// never hides a failure (a server refusing every Bearer header fails BEA-ACCEPT here too).
import type { ApiClient, ApiResponse } from '../client/index.ts';
import type { TargetConfig } from '../config/index.ts';
import { validateErrorBody } from '../contract/index.ts';
import type { CheckContext } from './define.ts';
import { shared } from './shared.ts';

export type SchemeUse = { taken: true; how: string } | { taken: false; how: string; refusal: ApiResponse };

const ROUTE = 'GET /v1/customers';
const ALLOWS = 'the spec: "API key or bearer token as the route allows"';

/** Whether an answer is a proper refusal of a scheme the route does not take: 401/403 and the error body. */
export function isSchemeRefusal(res: ApiResponse): boolean {
  return (res.status === 401 || res.status === 403) && res.isJson && validateErrorBody(res.body).valid;
}

/**
 * Whether GET /v1/customers takes a bearer token in this run, and how that was known. `answer`:
 * the bearer token's answer there when it was asked (undefined with CUSTOMERS_AUTH=both), which a
 * check that wanted that very page reads instead of asking again.
 */
export async function customersBearer(
  client: ApiClient,
  config: TargetConfig,
): Promise<SchemeUse & { answer?: ApiResponse }> {
  if (config.customersAuth === 'both') return { taken: true, how: 'CUSTOMERS_AUTH=both' };
  const res = await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'bearer' });
  const me =
    config.customersAuth !== 'api-key' && isSchemeRefusal(res)
      ? await client.request({ service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' })
      : undefined;
  return { ...customersBearerOf(config, res, me), answer: res };
}

/**
 * The same judgement from answers already had: the bearer token's answer on GET /v1/customers and,
 * where that was a refusal, on GET /v1/user/me (the same questions customersBearer asks).
 */
export function customersBearerOf(
  config: TargetConfig,
  res: ApiResponse,
  me: ApiResponse | undefined,
): SchemeUse {
  if (config.customersAuth === 'both') return { taken: true, how: 'CUSTOMERS_AUTH=both' };
  if (config.customersAuth === 'api-key') {
    return { taken: false, how: `CUSTOMERS_AUTH=api-key (${ALLOWS})`, refusal: res };
  }
  // Refused here but taken by a bearer-only route: the route's choice. Refused there too, the token
  // or the scheme is what is broken, which no route may choose: the checks judge it.
  if (isSchemeRefusal(res) && me?.status === 200) {
    return {
      taken: false,
      how: `${ROUTE} refused the bearer token with ${res.status} and the error body, a choice the route may make (${ALLOWS})`,
      refusal: res,
    };
  }
  return { taken: true, how: `${ROUTE} answered the bearer token with ${res.status}` };
}

/**
 * For a check of a route's bearer token: ends it as skipped, with how it is known, where the route
 * takes no bearer token in this run (only GET /v1/customers may: "as the route allows").
 */
export async function skipUnlessBearerTaken(
  t: CheckContext,
  operationId: string,
  detected?: (t: CheckContext) => Promise<SchemeUse>,
): Promise<void> {
  if (operationId !== 'listCustomers') return;
  // A client of its own: the check's token requests are what some checks count.
  const use = await (detected ? detected(t) : customersBearer(t.newClient(), t.config));
  if (!use.taken) t.skip(`not this route's scheme here: ${use.how}`);
}

/**
 * customersBearer once for the checks of a suite that call it (shared work: its client of its own,
 * its exchanges every using check's evidence): the route's schemes are the target's, not a check's.
 */
export function sharedCustomersBearer(): (t: CheckContext) => Promise<SchemeUse & { answer?: ApiResponse }> {
  return shared((client, config) => customersBearer(client, config));
}
