// The conformance CLI as a real child process for the bad-ending tests: started against a target,
// signalled while it runs, its exit code and output collected; and the checks every report that
// exists must pass (complete, parseable, results.json valid by its schema).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLValidator } from 'fast-xml-parser';
import { targetEnv as benchTargetEnv } from '../../bench/target-env.ts';
import { nodeArgsFor } from '../../src/cli/node-command.ts';
import type { RunningReferenceServer } from '../../src/reference/index.ts';
import { ROOT } from '../support/run-node.ts';

export interface ChildRun {
  child: ChildProcess;
  /** Resolves when the process has ended. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /** True once the process has ended (a signal sent after that changed nothing). */
  exited: () => boolean;
  output: () => string;
}

/** The environment of a run against a separately started reference server (a remote target), quiet and without slow checks. */
export function targetEnv(server: RunningReferenceServer, reportsDir: string): NodeJS.ProcessEnv {
  return { ...benchTargetEnv(server, reportsDir), CONFORMANCE_SLOW: '0', FORCE_COLOR: '0', NO_COLOR: '1' };
}

export function startCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd = ROOT): ChildRun {
  const child = spawn(process.execPath, [...nodeArgsFor('src/cli/conformance.ts'), ...args], {
    cwd,
    env,
  });
  let output = '';
  let ended = false;
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('exit', () => {
        ended = true;
      });
      child.on('close', (code, signal) => resolve({ code, signal, output }));
    },
  );
  return { child, done, exited: () => ended, output: () => output };
}

const ajv = new Ajv2020.default({ allErrors: true, strict: true });
addFormats.default(ajv);
const validateResults = ajv.compile(
  JSON.parse(readFileSync(join(ROOT, 'schemas/results.schema.json'), 'utf8')),
);

/** Why the text of a report file is not a complete report, or undefined when it is. */
export function reportProblem(name: string, text: string): string | undefined {
  if (text.length === 0) return `${name} is empty`;
  switch (name) {
    case 'results.json':
    case 'previous-results.json': {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        return `${name} does not parse: ${(error as Error).message}`;
      }
      if (!validateResults(data)) return `${name} is not valid: ${ajv.errorsText(validateResults.errors)}`;
      return undefined;
    }
    case 'summary.md':
      return text.startsWith('# Conformance of') && text.endsWith('\n') ? undefined : `${name} is cut short`;
    case 'index.html':
      return text.startsWith('<!DOCTYPE html>') && text.trimEnd().endsWith('</html>')
        ? undefined
        : `${name} is cut short`;
    case 'junit.xml':
      return XMLValidator.validate(text) === true && text.includes('</testsuites>')
        ? undefined
        : `${name} is not well-formed XML`;
    default:
      return undefined;
  }
}

export const REPORTS = ['results.json', 'previous-results.json', 'summary.md', 'index.html', 'junit.xml'];

/**
 * Every problem of the reports in the folder (hidden temporary files are not reports). With `seen`,
 * a file whose inode, size and time are unchanged since the last look is not read again (a reader
 * polling every few milliseconds would otherwise spend the machine on parsing).
 */
export function reportsProblems(dir: string, seen?: Map<string, string>): string[] {
  if (!existsSync(dir)) return [];
  const problems: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!REPORTS.includes(name)) continue;
    let text: string;
    try {
      if (seen) {
        const s = statSync(join(dir, name));
        const key = `${s.ino}:${s.size}:${s.mtimeMs}`;
        if (seen.get(name) === key) continue;
        seen.set(name, key);
      }
      text = readFileSync(join(dir, name), 'utf8');
    } catch {
      continue; // renamed away between the listing and the read
    }
    const problem = reportProblem(name, text);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The exit code and start results.json states, if it is there and parses. */
export function statedResults(dir: string): { exitCode: number; startedAt: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      exitCode: number;
      startedAt: string;
    };
  } catch {
    return undefined;
  }
}
