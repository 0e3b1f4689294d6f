// The script's own plan read before k6 starts, from the environment k6 will get: a profile that
// does not apply, a bad RATE_/FLAG_/RELEASE_ value, or the flag-cache smoke profile against a remote
// target is one line and exit 2 up front, not a k6 start that ends in a thrown init error.
import { LoadConfigError } from '../../load/lib/env.ts';
import { readFlagPlan } from '../../load/lib/flag-plan.ts';
import { readRatePlan } from '../../load/lib/rate-plan.ts';
import { readReleasePlan } from '../../load/lib/release-plan.ts';
import type { LoadScriptName } from './scripts.ts';

/**
 * Why the script would refuse its plan, or undefined. controlAvailable: the script gets a control
 * API; profile: the run's profile, as it is handed over.
 */
export function planProblem(
  script: LoadScriptName,
  env: Readonly<Record<string, string | undefined>>,
  controlAvailable: boolean,
  profile?: string,
): string | undefined {
  try {
    if (script === 'rate-limit') readRatePlan(env, profile);
    else if (script === 'flag-cache') readFlagPlan(env, controlAvailable, profile);
    else readReleasePlan(env, false, profile);
    return undefined;
  } catch (error) {
    if (error instanceof LoadConfigError) return error.message;
    throw error;
  }
}
