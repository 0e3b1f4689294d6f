// One conformance run of a benchmark, timed: wall time, and CPU seconds (user + system) where
// /usr/bin/time is present, which a busy machine stretches less than wall time. The run's output
// is not shown; the tail of its stderr says why a run could not start.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { nodeArgsFor } from '../src/cli/node-command.ts';

const ROOT = new URL('..', import.meta.url);
const TIME = existsSync('/usr/bin/time');

export interface TimedRun {
  wallMs: number;
  /** NaN where /usr/bin/time is missing. */
  cpuSeconds: number;
  /** The two parts of cpuSeconds: the run's own code, and the kernel's work for it (reading sockets). */
  userSeconds: number;
  systemSeconds: number;
  exitCode: number | null;
  stderrTail: string;
}

export function timedConformanceRun(env: NodeJS.ProcessEnv): Promise<TimedRun> {
  const started = performance.now();
  const node = [process.execPath, ...nodeArgsFor('src/cli/conformance.ts')];
  // /usr/bin/time's own line is the last of the run's stderr.
  const [command, ...args] = TIME ? ['/usr/bin/time', '-f', 'cpu %U %S', ...node] : node;
  return new Promise((resolve, reject) => {
    const child = spawn(command ?? process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      resolve({
        wallMs: performance.now() - started,
        cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN,
        userSeconds: cpu ? Number(cpu[1]) : Number.NaN,
        systemSeconds: cpu ? Number(cpu[2]) : Number.NaN,
        exitCode,
        stderrTail: stderr.replace(/cpu [\d.]+ [\d.]+\s*$/, '').trim(),
      });
    });
  });
}
