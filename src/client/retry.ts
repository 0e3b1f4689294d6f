// 429 handling for the suite's own traffic: honour Retry-After, within a bounded number of retries
// and a bounded total wait, so a throttled target slows a run down but never hangs it.
import { setTimeout as delay } from 'node:timers/promises';
import type { ApiResponse, RetryPolicy } from './types.ts';

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxTotalWaitMs: 10_000,
  defaultDelayMs: 1_000,
  sleep: (ms) => delay(ms),
  now: () => Date.now(),
};

/** Milliseconds to wait: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only the date forms HTTP allows contain a comma or a GMT; a bare number was handled above.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

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
