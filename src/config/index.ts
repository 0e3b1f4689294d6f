// Configuration: .env + environment -> one validated target; the production guard; secret values.

export { applyEnvFile } from './env-file.ts';
export { type GuardedAction, type GuardVerdict, guard, isProduction } from './guard.ts';
export { formatProblems } from './problems.ts';
export { secretValues } from './secrets.ts';
export { type LoadOptions, loadSettings } from './settings.ts';
export { resolveTarget, targetValues } from './target.ts';
export type {
  ConfigProblem,
  CustomersAuth,
  LoadResult,
  LocalServerInfo,
  TargetConfig,
  TargetName,
  TargetSettings,
} from './types.ts';
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_SECRET_LENGTH, SECRET_VARIABLES } from './validate.ts';
