// 429 handling for the suite's own traffic: honour Retry-After, within a bounded number of retries
// and a bounded total wait, so a throttled target slows a run down but never hangs it.
import { setTimeout as delay } from 'node:timers/promises';
import { parseRetryAfter } from '../../common/retry-after.ts';
import type { ApiResponse, RetryPolicy } from './types.ts';

// The one Retry-After grammar is shared with the k6 scripts (k6-safe, so it lives in common/).
export { parseRetryAfter };

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxTotalWaitMs: 10_000,
  defaultDelayMs: 1_000,
  sleep: (ms) => delay(ms),
  now: () => Date.now(),
};

/** Sends, and after a 429 waits as told and sends again, within the policy's bounds. */
export async function with429Retries(
  attempt: () => Promise<ApiResponse>,
  policy: RetryPolicy,
  enabled: boolean,
): Promise<ApiResponse> {
  let res = await attempt();
  let waited = 0;
  for (let retry = 0; enabled && res.status === 429 && retry < policy.maxRetries; retry++) {
    const wait = parseRetryAfter(res.headers['retry-after'], policy.now()) ?? policy.defaultDelayMs;
    // Waiting longer than the budget allows would only delay the same answer.
    if (waited + wait > policy.maxTotalWaitMs) return res;
    await policy.sleep(wait);
    waited += wait;
    res = await attempt();
  }
  return res;
}
