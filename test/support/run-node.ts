// Runs a TypeScript entry point of this project in its own Node process (as the npm scripts do),
// collecting its exit code and output: the tests of the command-line tools share it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Absolute, so a run in another working directory (with its own .env) still finds both.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

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
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, script), ...args], {
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
