// loadSettings: .env + environment -> validated TargetSettings, or every problem found.
import { readVariables } from './env-file.ts';
import type { LoadResult } from './types.ts';
import { validate } from './validate.ts';

export interface LoadOptions {
  /** Path of the .env file (default `.env` in the working directory); false reads no file. */
  envFile?: string | false;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): LoadResult {
  const { values, problems, warnings } = readVariables(env, options.envFile);
  const result = validate(values, problems);
  // Only when there is something to say: a clean configuration's result stays as it was.
  return warnings.length > 0 ? { ...result, warnings } : result;
}
