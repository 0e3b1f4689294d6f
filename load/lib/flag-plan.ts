// The flag-cache probe's plan: how many pollers, how often, for how long, and whether the
// reference server's clock is moved (time lapse) so a run covers several 60 s windows in seconds.
// Pure: the script builds its scenarios from it and uses its clock model.
import { type EnvMap, envDuration, envNumber, envString, LoadConfigError } from './env.ts';
import { PROFILES, readProfile } from './profile.ts';

export interface FlagPlan {
  vus: number;
  /** Real seconds between two polls of one poller. */
  pollSeconds: number;
  /** Real seconds the pollers run. */
  durationSeconds: number;
  /** Real seconds between two clock ticks (switching a flag, moving the clock); 0: no ticks. */
  tickSeconds: number;
  /** Virtual seconds the reference server's clock is moved at every tick (0: real time). */
  lapseSeconds: number;
  /**
   * Features switched at the ticks (reference server only) so renewals bring new data: at tick k
   * feature i is off when bit i of k is set, so the data differs between any two ticks fewer than
   * 2^n apart (n features), more than the ticks between two renewals.
   */
  toggleFeatures: string[];
  windowSeconds: number;
  toleranceMs: number;
}

/** controlAvailable: REFERENCE_CONTROL_URL is set (the local reference server). */
export function readFlagPlan(env: EnvMap, controlAvailable: boolean, profileName?: string): FlagPlan {
  const profile = readProfile(profileName, 'flag-cache', PROFILES, 'load');
  const smoke = profile === 'smoke';
  const windowSeconds = envDuration(env, 'FLAG_WINDOW', 60, { min: 1, max: 86_400 });
  if (smoke && !controlAvailable && envString(env, 'FLAG_DURATION') === undefined) {
    // Without the reference server's clock, a short run cannot see two renewals a window apart.
    throw new LoadConfigError(
      `the smoke profile cannot judge the flag cache of a remote target: a conclusive run polls for two ${windowSeconds} s windows and more (at least ${2 * windowSeconds + 30} s, and the target's flags must change meanwhile); use --profile load (${2 * windowSeconds + 30} s) or set FLAG_DURATION`,
    );
  }
  const lapseDefault = smoke && controlAvailable ? 12 : 0;
  const lapseSeconds = envNumber(env, 'FLAG_TIME_LAPSE', lapseDefault, { min: 0, max: 3600 });
  if (lapseSeconds > 0 && !controlAvailable) {
    throw new LoadConfigError(
      'FLAG_TIME_LAPSE needs REFERENCE_CONTROL_URL: only the reference server lets the probe move its clock',
    );
  }
  const tickDefault = lapseSeconds > 0 ? 1 : controlAvailable ? 20 : 0;
  const tickSeconds = controlAvailable
    ? envDuration(env, 'FLAG_TICK', tickDefault, { min: 0.2, max: 3600 })
    : 0;
  const pollDefault = lapseSeconds > 0 ? tickSeconds : smoke ? 1 : 5;
  const pollSeconds = envDuration(env, 'FLAG_POLL_INTERVAL', pollDefault, { min: 0.1, max: 3600 });
  if (
    lapseSeconds > 0 &&
    Math.abs(pollSeconds / tickSeconds - Math.round(pollSeconds / tickSeconds)) > 1e-9
  ) {
    throw new LoadConfigError(
      'FLAG_POLL_INTERVAL must be a whole number of FLAG_TICK periods when the clock is moved',
    );
  }
  return {
    vus: envNumber(env, 'FLAG_VUS', smoke ? 3 : 5, { min: 1, max: 1000, integer: true }),
    pollSeconds,
    durationSeconds: envDuration(
      env,
      'FLAG_DURATION',
      smoke ? 12 : profile === 'soak' ? 3600 : 2 * windowSeconds + 30,
      {
        min: 1,
        max: 86_400,
      },
    ),
    tickSeconds,
    lapseSeconds,
    toggleFeatures: controlAvailable
      ? (envString(env, 'FLAG_TOGGLE_FEATURES') ?? 'new-dashboard,beta-exports,reports')
          .split(',')
          .map((f) => f.trim())
          .filter((f) => f !== '')
      : [],
    windowSeconds,
    toleranceMs: envNumber(env, 'FLAG_TOLERANCE_MS', 1000, { min: 0, max: 60_000 }),
  };
}

/** Ticks happen at tickSeconds, 2 × tickSeconds, ... of the run; this many are done by a moment. */
export function ticksBefore(plan: FlagPlan, elapsedMs: number): number {
  return plan.tickSeconds > 0 ? Math.floor(elapsedMs / (plan.tickSeconds * 1000)) : 0;
}

/**
 * The server's clock at a moment of the run as planned: real elapsed time plus every jump the ticks
 * made. A plan only (it sizes the run's per-second counters): a starved k6 moves the clock late, so
 * the probe reads where its polls fell from the server's clock instead.
 */
export function virtualMs(plan: FlagPlan, elapsedMs: number): number {
  return elapsedMs + ticksBefore(plan, elapsedMs) * plan.lapseSeconds * 1000;
}

/**
 * When a poller's next poll is due (ms of the run). With a moving clock every poll sits half a tick
 * after a tick, as far as possible from the jumps (a poll spanning one is placed widely); otherwise
 * pollers are spread evenly over the interval.
 */
export function nextPollMs(plan: FlagPlan, vuIndex: number, afterMs: number): number {
  const period = plan.pollSeconds * 1000;
  const offset =
    plan.lapseSeconds > 0 ? (plan.tickSeconds * 1000) / 2 : (period * (vuIndex % plan.vus)) / plan.vus;
  const slots = Math.max(0, Math.ceil((afterMs - offset) / period));
  return offset + slots * period;
}

/** The per-second counter a change seen at atMs (ms since the run started) is counted in. */
export function changeSecond(atMs: number, seconds: number): number {
  return Math.min(Math.max(0, Math.floor(atMs / 1000)), seconds - 1);
}

/** Virtual seconds the run covers (for the per-second change counters). */
export function virtualSeconds(plan: FlagPlan): number {
  return Math.ceil(virtualMs(plan, plan.durationSeconds * 1000) / 1000);
}

/** Requests per second all pollers send together: kept below the limiter (the spec's advice). */
export function pollRate(plan: FlagPlan): number {
  return plan.vus / plan.pollSeconds;
}

/** Whether each toggled feature is on at tick k (tick 0: the start, everything on). */
export function featureStates(plan: FlagPlan, tick: number): { feature: string; enabled: boolean }[] {
  return plan.toggleFeatures.map((feature, i) => ({ feature, enabled: ((tick >> i) & 1) === 0 }));
}
