// One GET of the target's base address before k6 starts: an unreachable target is one line and
// exit 2, not a k6 run of failed requests. Any HTTP answer (even 404) means it is reachable. The
// request goes through the suite's client, so reachability is decided as the conformance run
// decides it (unreachableReason of src/client/errors.ts), in the same words.
import { createApiClient, unreachableReason } from '../client/index.ts';
import type { TargetConfig } from '../config/index.ts';

/** Longest wait for the first answer: a load run should not sit on a silent target. */
const PREFLIGHT_TIMEOUT_MS = 10_000;

/** undefined when the API base address answers; otherwise why not, in one line. */
export async function targetUnreachable(config: TargetConfig): Promise<string | undefined> {
  const client = createApiClient({
    ...config,
    requestTimeoutMs: Math.min(config.requestTimeoutMs, PREFLIGHT_TIMEOUT_MS),
  });
  try {
    await client.request({ service: 'main', method: 'GET', path: '', auth: 'none', retryOn429: false });
    return undefined;
  } catch (error) {
    const reason = unreachableReason(error);
    return reason === undefined ? undefined : `cannot reach the target: ${reason}`;
  }
}
