// Before the checks run against a remote target, three requests tell a setup mistake from an API
// defect: a token request, an API-key request and a request to a known route (the pet list). A
// rotated secret or a wrong base path would otherwise read as dozens of failed checks.
// "Refused" (a 4xx naming the credentials) is a setup problem; a broken service (5xx, a malformed
// answer) is not: the checks run and report it.

import {
  type ApiClient,
  answered,
  petsAskForCredentials,
  petsBaseWrong,
  probe,
  probePetstore,
  type RecordedExchange,
} from '../client/index.ts';
import type { TargetConfig } from '../config/index.ts';

export interface SetupDiagnosis {
  /** One line: why nothing can be checked (exit 2). */
  problem?: string;
  /** One line: why the pet checks are skipped while the rest runs. */
  petstoreUnavailable?: string;
  /** The diagnosis's own requests, recorded (preflight.ts), judged by the invariants with the run's. */
  exchanges?: RecordedExchange[];
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
  // A wrong pet base is a setup mistake like a wrong API base: one line and exit 2, not every pet
  // check failed on the same 404.
  const wrongPets = petsBaseWrong(pets, config);
  if (wrongPets) return { problem: wrongPets };
  // A pet interface that took the connection and then dropped or held the request crashed or hung
  // on it: never a reason to skip (a crash is never inconclusive). Its checks run and meet it.
  if (pets && 'unreachable' in pets && !pets.droppedOrHeld) {
    return {
      petstoreUnavailable: `the pet demo interface cannot be reached (${pets.unreachable}); check PETSTORE_BASE_URL`,
    };
  }
  const asks = petsAskForCredentials(pets, config);
  if (asks) return { petstoreUnavailable: `${asks}, so the pet checks cannot run` };
  return {};
}
