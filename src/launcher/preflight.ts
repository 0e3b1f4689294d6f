// One GET of the target's base address before k6 starts: an unreachable target is one line and
// exit 2, not a k6 run of failed requests. Any HTTP answer (even 404) means it is reachable. The
// request goes through the suite's client, so reachability is decided as the conformance run
// decides it (unreachableReason of src/client/errors.ts), in the same words. Before the release run,
// one GET of the pet list as well, judged by the conformance run's setup diagnosis.
import {
  createApiClient,
  petsAskForCredentials,
  petsBaseWrong,
  probePetstore,
  unreachableReason,
} from '../client/index.ts';
import type { TargetConfig } from '../config/index.ts';

/** Longest wait for the first answer: a load run should not sit on a silent target. */
const PREFLIGHT_TIMEOUT_MS = 10_000;

function preflightClient(config: TargetConfig) {
  return createApiClient({
    ...config,
    requestTimeoutMs: Math.min(config.requestTimeoutMs, PREFLIGHT_TIMEOUT_MS),
  });
}

/** undefined when the API base address answers; otherwise why not, in one line. */
export async function targetUnreachable(config: TargetConfig): Promise<string | undefined> {
  const client = preflightClient(config);
  try {
    await client.request({ service: 'main', method: 'GET', path: '', auth: 'none', retryOn429: false });
    return undefined;
  } catch (error) {
    const reason = unreachableReason(error);
    return reason === undefined ? undefined : `cannot reach the target: ${reason}`;
  }
}

/**
 * Before a run that lists pets: the pet list answering 404 means PETSTORE_BASE_URL is wrong (one
 * line, exit 2, as the conformance run's setup diagnosis says it), or why the pet traffic must be
 * left out (the pet list asks for credentials). Asked once: one GET of the pet list.
 */
export async function petsPreflight(config: TargetConfig): Promise<{ wrong?: string; leftOut?: string }> {
  const pets = await probePetstore(preflightClient(config), config);
  const wrong = petsBaseWrong(pets, config);
  if (wrong) return { wrong };
  const leftOut = petsAskForCredentials(pets, config);
  return leftOut ? { leftOut } : {};
}
