// Before the checks run against a remote target, three requests tell a setup mistake from an API
// defect: a token request, an API-key request and a request to a known route (the pet list). A
// rotated secret or a wrong base path would otherwise read as dozens of failed checks.
// "Refused" (a 4xx naming the credentials) is a setup problem; a broken service (5xx, a malformed
// answer) is not: the checks run and report it.

import { errorCode } from '../../load/lib/shared/error-body.ts';
import { type ApiClient, type ApiResponse, unreachableReason } from '../client/index.ts';
import { guard, type TargetConfig } from '../config/index.ts';

export interface SetupDiagnosis {
  /** One line: why nothing can be checked (exit 2). */
  problem?: string;
  /** One line: why the pet checks are skipped while the rest runs. */
  petstoreUnavailable?: string;
}

export type Probe = { response: ApiResponse } | { unreachable: string } | { broken: string };

async function probe(run: () => Promise<ApiResponse>): Promise<Probe> {
  try {
    return { response: await run() };
  } catch (error) {
    const unreachable = unreachableReason(error);
    return unreachable ? { unreachable } : { broken: (error as Error).message };
  }
}

function answered(res: ApiResponse): string {
  // The error body's code, when the answer has one: says which refusal the service meant.
  const code = errorCode(res.body);
  return `HTTP ${res.status}${code ? ` ${code}` : ''}`;
}

// Credentials refused: the statuses a service gives a caller it does not accept.
const REFUSED = new Set([400, 401, 403, 419, 422]);

export async function diagnoseSetup(client: ApiClient, config: TargetConfig): Promise<SetupDiagnosis> {
  const { credentials } = config;
  const [token, apiKey, pets] = await Promise.all([
    probe(() =>
      client.request({
        service: 'main',
        method: 'POST',
        path: 'v1/auth/token',
        auth: 'none',
        body: { client_id: credentials.clientId, client_secret: credentials.clientSecret },
      }),
    ),
    probe(() => client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' })),
    probePetstore(client, config),
  ]);

  const tokenUrl = `POST ${config.apiBaseUrl}v1/auth/token`;
  const customersUrl = `GET ${config.apiBaseUrl}v1/customers`;
  if ('unreachable' in token && 'unreachable' in apiKey) {
    return { problem: `cannot reach the target: ${token.unreachable}` };
  }
  if (
    'response' in token &&
    'response' in apiKey &&
    token.response.status === 404 &&
    apiKey.response.status === 404
  ) {
    return {
      problem:
        `every route answers 404 (${tokenUrl}, ${customersUrl}): ` +
        'check API_BASE_URL, the base address of the service ending with /api/',
    };
  }
  if ('response' in token && REFUSED.has(token.response.status)) {
    return {
      problem: `client credentials refused: ${tokenUrl} answered ${answered(token.response)}; check CLIENT_ID and CLIENT_SECRET`,
    };
  }
  if ('response' in apiKey && (apiKey.response.status === 401 || apiKey.response.status === 403)) {
    return {
      problem:
        `API key refused: ${customersUrl} answered ${answered(apiKey.response)}; ` +
        'check API_KEY_ID and API_KEY_SECRET (and whether the key is pinned to another IP address)',
    };
  }
  if (pets && 'unreachable' in pets) {
    return {
      petstoreUnavailable: `the pet demo interface cannot be reached (${pets.unreachable}); check PETSTORE_BASE_URL`,
    };
  }
  const asks = petsAskForCredentials(pets, config);
  if (asks) return { petstoreUnavailable: `${asks}, so the pet checks cannot run` };
  return {};
}

/**
 * One bare GET {PETSTORE_BASE_URL}/pets?limit=1; undefined where the guard forbids touching the pet
 * demo (production). Shared with the load CLI's preflight, so both decide alike.
 */
export function probePetstore(client: ApiClient, config: TargetConfig): Promise<Probe> | undefined {
  if (!guard(config, 'petstore').allowed) return undefined;
  return probe(() =>
    client.request({ service: 'petstore', method: 'GET', path: 'pets', query: { limit: 1 }, auth: 'none' }),
  );
}

/**
 * The spec does not show how the pet operations authenticate ("not shown"), so we hold no
 * credentials for them: a pet interface answering 401/403 cannot be exercised, which is no defect.
 * Says so in one line (without the consequence, which is the caller's), else undefined.
 */
export function petsAskForCredentials(pets: Probe | undefined, config: TargetConfig): string | undefined {
  if (!pets || !('response' in pets)) return undefined;
  const { response } = pets;
  if (response.status !== 401 && response.status !== 403) return undefined;
  return (
    `the pet demo interface asks for credentials (GET ${config.petstoreBaseUrl}/pets answered ` +
    `${answered(response)}); the spec does not show its authentication`
  );
}
