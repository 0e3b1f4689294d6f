// The rate-limit probe's plan: a stepped arrival rate from RATE_START to RATE_CEILING requests per
// second, each step held RATE_STEP_DURATION. Pure: the script turns it into k6 scenario options,
// the analysis uses it to know the offered rate at any moment.
import { type EnvMap, envChoice, envDuration, envNumber, envString, k6Duration } from './env.ts';

export interface RatePlan {
  auth: 'apiKey' | 'bearer';
  /** Relative to API_BASE_URL. */
  path: string;
  /** Requests per second of each step, in order. */
  rates: number[];
  stepSeconds: number;
  /** The limiter's window when known (RATE_WINDOW); otherwise the analysis measures it. */
  windowSeconds: number | undefined;
  maxVus: number;
  /** Longest Retry-After the recovery check waits out. */
  maxRetryAfterSeconds: number;
  /** Requests the recovery check may send to provoke a 429 once the ramp is over. */
  recoveryBudget: number;
  /** RATE_EXPECTED_LIMIT: the limit per window the target is said to have, to compare with. */
  expectedLimit: number | undefined;
}

export function readRatePlan(env: EnvMap): RatePlan {
  const start = envNumber(env, 'RATE_START', 2, { min: 0.1, max: 100_000 });
  const ceiling = envNumber(env, 'RATE_CEILING', 30, { min: start, max: 100_000 });
  const steps = envNumber(env, 'RATE_STEPS', 5, { min: 1, max: 100, integer: true });
  const stepSeconds = envDuration(env, 'RATE_STEP_DURATION', 60, { min: 1, max: 86_400 });
  const window = envString(env, 'RATE_WINDOW');
  const path = envString(env, 'RATE_PATH') ?? 'v1/customers';
  return {
    auth:
      envChoice(env, 'RATE_AUTH', ['apikey', 'bearer'] as const, 'apikey') === 'bearer' ? 'bearer' : 'apiKey',
    path: path.replace(/^\/+/, ''),
    rates: stepRates(start, ceiling, steps),
    stepSeconds,
    windowSeconds:
      window === undefined ? undefined : envDuration(env, 'RATE_WINDOW', 60, { min: 1, max: 86_400 }),
    maxVus: envNumber(env, 'RATE_MAX_VUS', Math.max(20, Math.ceil(ceiling * 2)), { min: 1, integer: true }),
    maxRetryAfterSeconds: envDuration(env, 'RATE_MAX_RETRY_AFTER', 120, { min: 0, max: 3600 }),
    recoveryBudget: envNumber(env, 'RATE_RECOVERY_BUDGET', 1000, { min: 1, integer: true }),
    expectedLimit:
      envString(env, 'RATE_EXPECTED_LIMIT') === undefined
        ? undefined
        : envNumber(env, 'RATE_EXPECTED_LIMIT', 0, { min: 1, integer: true }),
  };
}

/** Evenly spaced rates from start to ceiling (both included), rounded to 0.1 req/s. */
export function stepRates(start: number, ceiling: number, steps: number): number[] {
  if (steps <= 1) return [ceiling];
  return Array.from(
    { length: steps },
    (_, i) => Math.round((start + ((ceiling - start) * i) / (steps - 1)) * 10) / 10,
  );
}

export function rampSeconds(plan: RatePlan): number {
  return plan.rates.length * plan.stepSeconds;
}

/** ramping-arrival-rate stages: a jump to each step's rate (0 s stage), then a hold. */
export function rampStages(plan: RatePlan): { target: number; duration: string }[] {
  return plan.rates.flatMap((rate, i) => {
    const hold = { target: rate, duration: k6Duration(plan.stepSeconds) };
    return i === 0 ? [hold] : [{ target: rate, duration: '0s' }, hold];
  });
}

/**
 * k6 arrival rates are integers per timeUnit: express fractional rates per minute (or per second
 * when they are whole) so 2.5 req/s is 150 per minute.
 */
export function arrivalUnit(plan: RatePlan): { timeUnit: string; scale: number } {
  return plan.rates.every(Number.isInteger) ? { timeUnit: '1s', scale: 1 } : { timeUnit: '1m', scale: 60 };
}

/** The offered rate (req/s) at a moment of the ramp (seconds since it started). */
export function offeredRateAt(plan: RatePlan, seconds: number): number {
  const step = Math.min(plan.rates.length - 1, Math.max(0, Math.floor(seconds / plan.stepSeconds)));
  return plan.rates[step] ?? 0;
}
