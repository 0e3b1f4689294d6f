// Reads the raw variables: the .env file (parsed, never loaded whole into process.env, so nothing
// leaks into other code or tests) overlaid with the real environment, which wins as dotenv's does.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { VARIABLES } from '../../common/variables.ts';
import type { ConfigProblem } from './types.ts';
import { unknownVariableWarnings } from './unknown-variables.ts';

export type RawVariables = Record<string, string | undefined>;

export interface RawRead {
  values: RawVariables;
  problems: ConfigProblem[];
  /** One line per unknown variable that looks like ours (unknown-variables.ts). */
  warnings: string[];
}

/** The variables of a .env file, none when there is no file; a problem when it cannot be read. */
function readEnvFile(envFile: string | false | undefined): {
  fromFile: Record<string, string>;
  problem?: ConfigProblem;
} {
  if (envFile === false) return { fromFile: {} };
  const path = resolve(envFile ?? '.env');
  try {
    return { fromFile: parse(readFileSync(path)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No .env is the normal case (the local target needs none).
    if (code === 'ENOENT') return { fromFile: {} };
    return {
      fromFile: {},
      problem: {
        variable: path,
        problem: `the .env file cannot be read (${code ?? 'unreadable'})`,
        expected: 'a readable file of NAME=value lines, or no file at all',
      },
    };
  }
}

export function readVariables(env: NodeJS.ProcessEnv, envFile: string | false | undefined): RawRead {
  const { fromFile, problem } = readEnvFile(envFile);
  const values: RawVariables = { ...fromFile };
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) values[name] = value;
  }
  const warnings = unknownVariableWarnings(
    Object.keys(fromFile),
    Object.keys(env).filter((name) => env[name] !== undefined),
  );
  return { values, problems: problem ? [problem] : [], warnings };
}

/** The table's variables that are not secrets: the ones a command may take into its environment. */
const PLAIN_VARIABLES: readonly string[] = VARIABLES.filter((v) => !v.secret).map((v) => v.name);

/**
 * Every variable is read from .env and the environment alike. The settings come through
 * loadSettings; the rest (the reports folder, the seed and budget of generated requests, the load
 * runs' RATE_/FLAG_/RELEASE_/LOCAL_ values) are read where they are used, from process.env, in this
 * process, vitest's workers and k6. So a command first copies .env's values of the table's
 * variables that the environment does not set into its own environment. Secrets never: they
 * reach the run only through loadSettings (k6 gets them in the hand-over), so no child inherits
 * them. Returns the names it set.
 */
export function applyEnvFile(env: NodeJS.ProcessEnv = process.env, envFile?: string | false): string[] {
  const { fromFile } = readEnvFile(envFile);
  const set: string[] = [];
  for (const name of PLAIN_VARIABLES) {
    const value = fromFile[name];
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
