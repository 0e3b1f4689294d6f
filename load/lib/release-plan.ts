// The pre-release load profiles (LOAD_PROFILE): how many users, how long, and the thresholds the
// run must hold. Pure: the script turns the plan into k6 options.
import { type EnvMap, envDuration, envNumber, k6Duration } from './env.ts';
import { PROFILES, type ProfileName, readProfile } from './profile.ts';
import type { Sample } from './samples.ts';

export { PROFILES, type ProfileName };

export interface Stage {
  target: number;
  duration: string;
}

export type UserScenario =
  | { executor: 'constant-vus'; exec: string; vus: number; duration: string; gracefulStop: string }
  | {
      executor: 'ramping-vus';
      exec: string;
      startVUs: number;
      stages: Stage[];
      gracefulRampDown: string;
      gracefulStop: string;
    };

export interface ReleasePlan {
  profile: ProfileName;
  /** Peak virtual users. */
  vus: number;
  /** Seconds at the peak. */
  holdSeconds: number;
  scenario: UserScenario;
  p95Ms: number;
  maxErrorRate: number;
  /** Mean pause between two visits of one user. */
  thinkSeconds: number;
  /** How long a user keeps its flags (the spec's cache advice). */
  flagsTtlSeconds: number;
  /** Whether users also list pets (the demo interface; never against production). */
  pets: boolean;
}

interface ProfileDefaults {
  vus: number;
  holdSeconds: number;
  rampSeconds: number;
  p95Ms: number;
  maxErrorRate: number;
  thinkSeconds: number;
}

const DEFAULTS: Record<ProfileName, ProfileDefaults> = {
  // A handful of users, briefly: does the mix work at all?
  smoke: { vus: 2, holdSeconds: 30, rampSeconds: 0, p95Ms: 1000, maxErrorRate: 0.01, thinkSeconds: 0.5 },
  // The expected peak, held long enough for a stable p95.
  load: { vus: 20, holdSeconds: 300, rampSeconds: 60, p95Ms: 500, maxErrorRate: 0.01, thinkSeconds: 1 },
  // Twice the peak, in two plateaus: where does it bend?
  stress: { vus: 50, holdSeconds: 180, rampSeconds: 120, p95Ms: 1500, maxErrorRate: 0.05, thinkSeconds: 1 },
  // The expected peak for an hour: leaks, expiring tokens, growing latency.
  soak: { vus: 20, holdSeconds: 3600, rampSeconds: 120, p95Ms: 500, maxErrorRate: 0.01, thinkSeconds: 1 },
};

function stagesFor(profile: ProfileName, vus: number, hold: number, ramp: number): Stage[] {
  const d = k6Duration;
  if (profile === 'stress') {
    return [
      { target: vus, duration: d(ramp) },
      { target: vus, duration: d(hold) },
      { target: vus * 2, duration: d(ramp) },
      { target: vus * 2, duration: d(hold) },
      { target: 0, duration: d(ramp) },
    ];
  }
  return [
    { target: vus, duration: d(ramp) },
    { target: vus, duration: d(hold) },
    { target: 0, duration: d(ramp) },
  ];
}

/**
 * petsAllowed: the script may list pets (petstoreAllowed: not production, an address handed over or
 * given, RELEASE_PETS not off); profileName: the run's profile (LoadConfig.profile).
 */
export function readReleasePlan(env: EnvMap, petsAllowed: boolean, profileName?: string): ReleasePlan {
  const profile = readProfile(profileName, 'release', PROFILES, 'smoke');
  const base = DEFAULTS[profile];
  const vus = envNumber(env, 'RELEASE_VUS', base.vus, { min: 1, max: 100_000, integer: true });
  const holdSeconds = envDuration(env, 'RELEASE_DURATION', base.holdSeconds, { min: 1, max: 7 * 86_400 });
  const rampSeconds = envDuration(env, 'RELEASE_RAMP', base.rampSeconds, { min: 0, max: 86_400 });
  const scenario: UserScenario =
    rampSeconds === 0
      ? {
          executor: 'constant-vus',
          exec: 'visit',
          vus,
          duration: k6Duration(holdSeconds),
          gracefulStop: '10s',
        }
      : {
          executor: 'ramping-vus',
          exec: 'visit',
          startVUs: 0,
          stages: stagesFor(profile, vus, holdSeconds, rampSeconds),
          gracefulRampDown: '10s',
          gracefulStop: '10s',
        };
  return {
    profile,
    vus,
    holdSeconds,
    scenario,
    p95Ms: envNumber(env, 'RELEASE_P95_MS', base.p95Ms, { min: 1 }),
    maxErrorRate: envNumber(env, 'RELEASE_MAX_ERROR_RATE', base.maxErrorRate, { min: 0, max: 1 }),
    thinkSeconds: envDuration(env, 'RELEASE_THINK_TIME', base.thinkSeconds, { min: 0, max: 3600 }),
    flagsTtlSeconds: 60,
    pets: petsAllowed,
  };
}

/** The endpoints a visit calls, by their `endpoint` tag. */
export function releaseEndpoints(plan: ReleasePlan): string[] {
  return ['customers', 'user-me', 'feature-flags', ...(plan.pets ? ['pets'] : [])];
}

/**
 * What a user saw fail, after a renewal: the answer that asked for a new token (SESSION_EXPIRED) is
 * expected behaviour and counts in its own metric, so error thresholds are judged on this rate,
 * not on k6's http_req_failed (which counts that answer).
 */
export const USER_ERRORS = 'release_errors';

/** The k6 scenario of the users; setup's requests carry no scenario tag. */
export const USERS_SCENARIO = 'users';

/**
 * Thresholds on p95 and the error rate users saw, overall and per endpoint (so the report shows each
 * one). The overall p95 is the users' own: setup's requests (a token, the page count) are no part of
 * the load, and a run that stopped in setup must not fail on their one duration.
 */
export function releaseThresholds(plan: ReleasePlan): Record<string, string[]> {
  const p95 = `p(95)<${plan.p95Ms}`;
  const errors = `rate<${plan.maxErrorRate}`;
  const thresholds: Record<string, string[]> = {
    [`http_req_duration{scenario:${USERS_SCENARIO}}`]: [p95],
    [USER_ERRORS]: [errors],
  };
  for (const endpoint of releaseEndpoints(plan)) {
    thresholds[`http_req_duration{endpoint:${endpoint}}`] = [p95];
    thresholds[`${USER_ERRORS}{endpoint:${endpoint}}`] = [errors];
  }
  return thresholds;
}

/**
 * The users' samples (load/lib/samples.ts: `errors:<endpoint>` the first failed answer, `slow:<endpoint>`
 * the first answer over the p95 limit) as the evidence of the thresholds they count in: each
 * endpoint's own, and the first of any endpoint for the overall ones.
 */
export function releaseThresholdSamples(samples: ReadonlyMap<string, Sample>): Map<string, Sample> {
  const byMetric = new Map<string, Sample>();
  for (const [kind, sample] of [...samples].sort(([a], [b]) => a.localeCompare(b))) {
    const [what, endpoint] = kind.split(':');
    if (!endpoint) continue;
    const [own, overall] =
      what === 'errors'
        ? [`${USER_ERRORS}{endpoint:${endpoint}}`, USER_ERRORS]
        : what === 'slow'
          ? [`http_req_duration{endpoint:${endpoint}}`, `http_req_duration{scenario:${USERS_SCENARIO}}`]
          : [];
    if (!own || !overall) continue;
    byMetric.set(own, sample);
    if (!byMetric.has(overall)) byMetric.set(overall, sample);
  }
  return byMetric;
}
