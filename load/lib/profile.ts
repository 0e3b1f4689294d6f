// One profile switch for the three scripts (LOAD_PROFILE, or --profile of the npm scripts), with the
// same names everywhere. Each script says which profiles make sense for it and which is its
// default; a profile that does not apply is refused with one line rather than silently ignored.
import { type EnvMap, envChoice, envString, LoadConfigError } from './env.ts';

export const PROFILES = ['smoke', 'load', 'stress', 'soak'] as const;
export type ProfileName = (typeof PROFILES)[number];

export function readProfile<T extends ProfileName>(
  env: EnvMap,
  script: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const chosen = envChoice(env, 'LOAD_PROFILE', PROFILES, fallback);
  const fits = allowed.find((p) => p === chosen);
  if (fits === undefined) {
    throw new LoadConfigError(
      `LOAD_PROFILE="${envString(env, 'LOAD_PROFILE')}" does not apply to ${script}: expected one of ${allowed.join(', ')}`,
    );
  }
  return fits;
}
