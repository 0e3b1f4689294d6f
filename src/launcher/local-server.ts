// How the CLI starts the reference server for the local target, per script: the control API
// where the script steers the server, and the limiter the script should meet.
import { envSwitch } from '../../load/lib/env.ts';
import type { ReferenceServerOptions } from '../reference/index.ts';
import { DEFAULT_RATE_LIMIT, RATE_LIMIT_SHAPES, type RateLimit } from '../reference/options.ts';
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

/** LOCAL_RATE_SHAPE and LOCAL_RATE_REFILL (tokens per second, token bucket only). */
function limiterShape(env: NodeJS.ProcessEnv): Pick<RateLimit, 'shape' | 'refillPerSecond'> {
  const raw = env.LOCAL_RATE_SHAPE?.trim().toLowerCase();
  const shape = raw ? RATE_LIMIT_SHAPES.find((s) => s === raw) : undefined;
  if (raw && !shape) {
    throw new Error(
      `LOCAL_RATE_SHAPE=${JSON.stringify(raw)} is not valid: expected one of ${RATE_LIMIT_SHAPES.join(', ')}`,
    );
  }
  const refillRaw = env.LOCAL_RATE_REFILL?.trim();
  if (!refillRaw) return shape ? { shape } : {};
  const refill = /^\d+(\.\d+)?$/.test(refillRaw) ? Number(refillRaw) : Number.NaN;
  if (!(refill > 0) || (shape ?? 'token-bucket') !== 'token-bucket') {
    throw new Error(
      `LOCAL_RATE_REFILL=${JSON.stringify(refillRaw)} is not valid: expected tokens per second above 0, with LOCAL_RATE_SHAPE=token-bucket`,
    );
  }
  return { shape: 'token-bucket', refillPerSecond: refill };
}

/** LOCAL_FAULTS: comma-separated fault names of the reference server (checked when it starts). */
function faults(env: NodeJS.ProcessEnv): string[] {
  return (env.LOCAL_FAULTS ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
}

/**
 * LOCAL_RATE_LIMIT (requests, or `off`), LOCAL_RATE_WINDOW (seconds), LOCAL_RATE_SHAPE,
 * LOCAL_RATE_REFILL, LOCAL_RATE_HEADERS (a switch, on by default for rate-limit),
 * LOCAL_TOKEN_TTL (seconds) and LOCAL_FAULTS set up the local server (profile: the run's). The release profile runs
 * without a limiter unless asked: its users share one client credential, so a per-credential limit
 * would turn any profile above smoke into a rate-limit probe. Nothing about the limiter is handed to
 * the probe: it measures what it meets.
 */
export function localServerPlan(
  script: LoadScriptName,
  env: NodeJS.ProcessEnv,
  profile?: string,
): LocalServerPlan {
  const off = env.LOCAL_RATE_LIMIT?.trim().toLowerCase() === 'off';
  // The smoke profile of the rate probe is meant for windows up to 10 s: the local server then
  // offers one (100 per 10 s) unless told otherwise, so a first run is conclusive in about 20 s.
  const smokeProbe = script === 'rate-limit' && profile?.trim().toLowerCase() === 'smoke';
  const fallback = smokeProbe ? { limit: 100, windowSeconds: 10 } : DEFAULT_RATE_LIMIT;
  const limit = off
    ? undefined
    : (positiveInteger(env, 'LOCAL_RATE_LIMIT') ?? (smokeProbe ? fallback.limit : undefined));
  const windowSeconds = positiveInteger(env, 'LOCAL_RATE_WINDOW') ?? fallback.windowSeconds;
  const shaped = limiterShape(env);
  const rateLimit =
    off || (script === 'release' && limit === undefined)
      ? null
      : { limit: limit ?? DEFAULT_RATE_LIMIT.limit, windowSeconds, ...shaped };
  const rateLimitHeaders = envSwitch(env, 'LOCAL_RATE_HEADERS', script === 'rate-limit');
  const tokenTtlSeconds = positiveInteger(env, 'LOCAL_TOKEN_TTL');
  const faultNames = faults(env);
  const limiter = rateLimit
    ? rateLimit.shape === 'token-bucket'
      ? `token bucket of ${rateLimit.limit}, ${rateLimit.refillPerSecond ?? rateLimit.limit / rateLimit.windowSeconds}/s`
      : `${rateLimit.limit} requests per ${rateLimit.windowSeconds} s${rateLimit.shape === 'sliding-window' ? ' (sliding)' : ''}`
    : 'off';
  return {
    options: {
      control: LOAD_SCRIPTS[script].control,
      rateLimit,
      rateLimitHeaders,
      ...(tokenTtlSeconds !== undefined ? { tokenTtlSeconds } : {}),
      ...(faultNames.length ? { faults: faultNames } : {}),
    },
    defaults: {},
    description: `reference server (local target): rate limit ${limiter}${rateLimit && rateLimitHeaders ? ' with RateLimit headers' : ''}${tokenTtlSeconds !== undefined ? `, tokens live ${tokenTtlSeconds} s` : ''}${faultNames.length ? `, faults ${faultNames.join(', ')}` : ''}${LOAD_SCRIPTS[script].control ? ', control API on' : ''}`,
  };
}
