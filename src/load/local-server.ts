// How the CLI starts the reference server for the local target, per script: the control API
// where the script steers the server, and the limiter the script should meet.
import type { ReferenceServerOptions } from '../reference/index.ts';
import { DEFAULT_RATE_LIMIT } from '../reference/options.ts';
import type { LoadScriptName } from './scripts.ts';
import { LOAD_SCRIPTS } from './scripts.ts';

export interface LocalServerPlan {
  options: ReferenceServerOptions;
  /** Variables k6 gets unless the user set them (what the script should know of the server). */
  defaults: Record<string, string>;
  /** One line for the console: what was started and why. */
  description: string;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`${name}=${JSON.stringify(raw)} is not valid: expected a whole number of at least 1`);
  }
  return Number(raw);
}

/**
 * LOCAL_RATE_LIMIT (requests, or `off`) and LOCAL_RATE_WINDOW (seconds) set the local limiter. The
 * release profile runs without one unless asked: its users share one client credential, so a
 * per-credential limit would turn any profile above smoke into a rate-limit probe.
 */
export function localServerPlan(script: LoadScriptName, env: NodeJS.ProcessEnv): LocalServerPlan {
  const off = env.LOCAL_RATE_LIMIT?.trim().toLowerCase() === 'off';
  const limit = off ? undefined : positiveInteger(env, 'LOCAL_RATE_LIMIT');
  const windowSeconds = positiveInteger(env, 'LOCAL_RATE_WINDOW') ?? DEFAULT_RATE_LIMIT.windowSeconds;
  const rateLimit =
    off || (script === 'release' && limit === undefined)
      ? null
      : { limit: limit ?? DEFAULT_RATE_LIMIT.limit, windowSeconds };
  const defaults: Record<string, string> = {};
  if (script === 'rate-limit' && rateLimit) {
    // The probe then reports the limit per known window and how far it is from the configured one.
    defaults.RATE_WINDOW = `${rateLimit.windowSeconds}s`;
    defaults.RATE_EXPECTED_LIMIT = String(rateLimit.limit);
  }
  const limiter = rateLimit ? `${rateLimit.limit} requests per ${rateLimit.windowSeconds} s` : 'off';
  return {
    options: { control: LOAD_SCRIPTS[script].control, rateLimit },
    defaults,
    description: `reference server (local target): rate limit ${limiter}${LOAD_SCRIPTS[script].control ? ', control API on' : ''}`,
  };
}
