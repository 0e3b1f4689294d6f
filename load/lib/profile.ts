// One profile switch for the three scripts (LOAD_PROFILE, or --profile of the npm scripts: the CLI
// hands it over with the target, load/lib/config.ts reads it either way), with the same names
// everywhere. Each script says which profiles make sense for it and which is its
// default; a profile that does not apply is refused with one line rather than silently ignored.
import { envChoice, LoadConfigError } from './env.ts';

export const PROFILES = ['smoke', 'load', 'stress', 'soak'] as const;
export type ProfileName = (typeof PROFILES)[number];

/** value: the run's profile (LoadConfig.profile), undefined for the script's default. */
export function readProfile<T extends ProfileName>(
  value: string | undefined,
  script: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const chosen = envChoice({ LOAD_PROFILE: value }, 'LOAD_PROFILE', PROFILES, fallback);
  const fits = allowed.find((p) => p === chosen);
  if (fits === undefined) {
    throw new LoadConfigError(
      `LOAD_PROFILE="${value?.trim()}" does not apply to ${script}: expected one of ${allowed.join(', ')}`,
    );
  }
  return fits;
}
