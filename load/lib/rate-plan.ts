// The rate-limit probe's plan: which route and credential, and the bounds of the probe by profile.
// smoke: limiters whose window or refill period is up to 10 s, in at most 60 s; load (default):
// windows up to 60 s, in about three windows plus 30 s; stress: windows up to 5 min. Pure.
import { type EnvMap, envChoice, envDuration, envNumber, envString } from './env.ts';
import { DEFAULT_LIMITS, type ProbeLimits } from './limit-probe.ts';
import { readProfile } from './profile.ts';

export const RATE_PROFILES = ['smoke', 'load', 'stress'] as const;
export type RateProfile = (typeof RATE_PROFILES)[number];

const BOUNDS: Record<RateProfile, { budgetSeconds: number; maxBurst: number; longestWindow: string }> = {
  smoke: { budgetSeconds: 60, maxBurst: 2_000, longestWindow: '10 s' },
  load: { budgetSeconds: 210, maxBurst: 20_000, longestWindow: '60 s' },
  stress: { budgetSeconds: 960, maxBurst: 100_000, longestWindow: '5 min' },
};

export interface RatePlan {
  profile: RateProfile;
  auth: 'apiKey' | 'bearer';
  /** Relative to API_BASE_URL. */
  path: string;
  limits: ProbeLimits;
  /** The longest window or refill period the budget is meant for (for the report). */
  longestWindow: string;
  /** What the target is said to allow (RATE_EXPECTED_*), compared with what is measured. */
  expected: { burst?: number; ratePerSecond?: number };
}

/** profileName: the run's profile (LoadConfig.profile). */
export function readRatePlan(env: EnvMap, profileName?: string): RatePlan {
  const profile = readProfile(profileName, 'rate-limit', RATE_PROFILES, 'load');
  const bounds = BOUNDS[profile];
  const path = envString(env, 'RATE_PATH') ?? 'v1/customers';
  const optional = (name: string, integer: boolean) =>
    envString(env, name) === undefined ? undefined : envNumber(env, name, 0, { min: 0.001, integer });
  const burst = optional('RATE_EXPECTED_BURST', true);
  const ratePerSecond = optional('RATE_EXPECTED_RATE', false);
  return {
    profile,
    auth:
      envChoice(env, 'RATE_AUTH', ['apikey', 'bearer'] as const, 'apikey') === 'bearer' ? 'bearer' : 'apiKey',
    path: path.replace(/^\/+/, ''),
    limits: {
      ...DEFAULT_LIMITS,
      budgetMs: envDuration(env, 'RATE_BUDGET', bounds.budgetSeconds, { min: 5, max: 86_400 }) * 1000,
      maxBurst: envNumber(env, 'RATE_MAX_BURST', bounds.maxBurst, {
        min: 10,
        max: 10_000_000,
        integer: true,
      }),
      batch: envNumber(env, 'RATE_BATCH', DEFAULT_LIMITS.batch, { min: 1, max: 200, integer: true }),
    },
    longestWindow: bounds.longestWindow,
    expected: {
      ...(burst !== undefined ? { burst } : {}),
      ...(ratePerSecond !== undefined ? { ratePerSecond } : {}),
    },
  };
}
