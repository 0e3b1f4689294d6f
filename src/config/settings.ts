// loadSettings: .env + environment -> validated TargetSettings, or every problem found.
import { readVariables } from './env-file.ts';
import type { LoadResult } from './types.ts';
import { validate } from './validate.ts';

export interface LoadOptions {
  /** Path of the .env file (default `.env` in the working directory); false reads no file. */
  envFile?: string | false;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): LoadResult {
  const { values, problems } = readVariables(env, options.envFile);
  return validate(values, problems);
}
