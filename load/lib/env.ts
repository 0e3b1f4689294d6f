// Reading typed values from an environment map (k6's __ENV, or process.env in tests). Pure: no k6
// import, so vitest runs it in Node. A bad value throws one line naming the variable.

import { readSwitch, switchExpected } from '../../common/config-rules.ts';

export type EnvMap = Readonly<Record<string, string | undefined>>;

export class LoadConfigError extends Error {
  override name = 'LoadConfigError';
}

/** The trimmed value; empty means unset. */
export function envString(env: EnvMap, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** An on/off variable: the words every switch of the project takes (common/config-rules.ts). */
export function envSwitch(env: EnvMap, name: string, fallback: boolean): boolean {
  const raw = envString(env, name);
  const read = readSwitch(raw, fallback);
  if (read.ok) return read.value;
  throw new LoadConfigError(`${name}="${raw}" is not valid: expected ${switchExpected(fallback)}`);
}

export function envNumber(
  env: EnvMap,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const raw = envString(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY, integer = false } = bounds;
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    const kind = integer ? 'an integer' : 'a number';
    const range =
      Number.isFinite(min) && Number.isFinite(max)
        ? ` from ${min} to ${max}`
        : Number.isFinite(min)
          ? ` of at least ${min}`
          : Number.isFinite(max)
            ? ` of at most ${max}`
            : '';
    throw new LoadConfigError(`${name}="${raw}" is not valid: expected ${kind}${range}`);
  }
  return value;
}

const DURATION =
  /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

/** Seconds from a k6-style duration (`90s`, `2m`, `1h30m`, `500ms`) or a bare number of seconds. */
export function parseDurationSeconds(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const match = DURATION.exec(trimmed);
  if (!match || trimmed === '') return undefined;
  const [, h = '0', m = '0', s = '0', ms = '0'] = match;
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
}

export function envDuration(
  env: EnvMap,
  name: string,
  fallbackSeconds: number,
  bounds: { min?: number; max?: number } = {},
): number {
  const raw = envString(env, name);
  if (raw === undefined) return fallbackSeconds;
  const seconds = parseDurationSeconds(raw);
  const { min = 0, max = Number.POSITIVE_INFINITY } = bounds;
  if (seconds === undefined || seconds < min || seconds > max) {
    throw new LoadConfigError(
      `${name}="${raw}" is not valid: expected a duration such as 90s, 2m or 1h30m (${min} s to ${max} s)`,
    );
  }
  return seconds;
}

export function envChoice<T extends string>(
  env: EnvMap,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const raw = envString(env, name);
  if (raw === undefined) return fallback;
  const found = choices.find((c) => c === raw.toLowerCase());
  if (!found)
    throw new LoadConfigError(`${name}="${raw}" is not valid: expected one of ${choices.join(', ')}`);
  return found;
}

/** A k6 duration string for a number of seconds (k6 wants units). */
export function k6Duration(seconds: number): string {
  return `${Math.round(seconds * 1000)}ms`;
}
