// Reads the raw variables: the .env file (parsed, never loaded into process.env, so nothing leaks
// into other code or tests) overlaid with the real environment, which wins as dotenv's does.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import type { ConfigProblem } from './types.ts';

export type RawVariables = Record<string, string | undefined>;

export interface RawRead {
  values: RawVariables;
  problems: ConfigProblem[];
}

export function readVariables(env: NodeJS.ProcessEnv, envFile: string | false | undefined): RawRead {
  const problems: ConfigProblem[] = [];
  let fromFile: Record<string, string> = {};
  if (envFile !== false) {
    const path = resolve(envFile ?? '.env');
    try {
      fromFile = parse(readFileSync(path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No .env is the normal case (the local target needs none).
      if (code !== 'ENOENT') {
        problems.push({
          variable: path,
          problem: `the .env file cannot be read (${code ?? 'unreadable'})`,
          expected: 'a readable file of NAME=value lines, or no file at all',
        });
      }
    }
  }
  const values: RawVariables = { ...fromFile };
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) values[name] = value;
  }
  return { values, problems };
}
