// Runs a TypeScript entry point of this project in its own Node process (as the npm scripts do),
// collecting its exit code and output: the tests of the command-line tools share it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeArgsFor } from '../../src/cli/node-command.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `script` is relative to the repository root. */
export function runTs(
  script: string,
  args: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(script), ...args], {
      cwd: options.cwd ?? ROOT,
      env: options.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
