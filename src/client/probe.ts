// One request as a question about the target's setup, before any check or load run: it answered
// (with what), it cannot be reached (one line, unreachableReason's words), or the client broke on
// it. The conformance run's setup diagnosis (src/runner/setup-diagnosis.ts) and the load CLI's
// preflight (src/launcher/preflight.ts) ask through these, so both decide alike.
import { errorCode } from '../../common/error-body.ts';
import { guard, type TargetConfig } from '../config/index.ts';
import { TransportError, unreachableReason } from './errors.ts';
import type { ApiClient, ApiResponse } from './types.ts';

export type Probe =
  | { response: ApiResponse }
  | {
      unreachable: string;
      /**
       * The connection was made and then dropped, or the request held past its time: a server
       * that crashed or hung on it, not an address that leads nowhere.
       */
      droppedOrHeld?: true;
    }
  | { broken: string };

export async function probe(run: () => Promise<ApiResponse>): Promise<Probe> {
  try {
    return { response: await run() };
  } catch (error) {
    const unreachable = unreachableReason(error);
    if (!unreachable) return { broken: (error as Error).message };
    const dropped = error instanceof TransportError && (error.kind === 'reset' || error.kind === 'timeout');
    return dropped ? { unreachable, droppedOrHeld: true } : { unreachable };
  }
}

export function answered(res: ApiResponse): string {
  // The error body's code, when the answer has one: says which refusal the service meant.
  const code = errorCode(res.body);
  return `HTTP ${res.status}${code ? ` ${code}` : ''}`;
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

/**
 * A pet base address that answers but where the pet list is not: GET {PETSTORE_BASE_URL}/pets is a
 * route the spec shows, so a 404 there means the address is wrong (a missing /v1, the main service's
 * address), as every route answering 404 means a wrong API_BASE_URL. One line, else undefined.
 */
export function petsBaseWrong(pets: Probe | undefined, config: TargetConfig): string | undefined {
  if (!pets || !('response' in pets) || pets.response.status !== 404) return undefined;
  return (
    `the pet list answers 404 (GET ${config.petstoreBaseUrl}/pets): ` +
    'check PETSTORE_BASE_URL, the base address of the pet demo interface ending with /v1'
  );
}
