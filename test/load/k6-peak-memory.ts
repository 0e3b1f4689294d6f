// `k6 run` with its peak memory: the kernel's high-water mark of k6's resident set (VmHWM in
// /proc/PID/status), read while it runs. Linux only (elsewhere the peak is undefined); no GNU time
// needed. Used by the bounded-read tests and `npm run bench:k6-memory`; no vitest import.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface MeasuredRun {
  code: number | null;
  output: string;
  /** k6's peak resident set in MB, or undefined where /proc is not there. */
  peakRssMb: number | undefined;
  wallMs: number;
  /** Set when k6 was stopped for going over killAboveMb (its peak is then at least that). */
  killed?: boolean;
}

export interface MeasureOptions {
  /** The output is kept to its last characters (a hostile run can be chatty). */
  keep?: number;
  /** Stops k6 (SIGKILL) once its resident set passes this: an unprotected run must not take the machine. */
  killAboveMb?: number;
}

function highWaterKb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs one k6 script, watching its peak memory. */
export function k6RunMeasured(
  k6: string,
  file: string,
  env: NodeJS.ProcessEnv,
  { keep = 20_000, killAboveMb }: MeasureOptions = {},
): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(k6, ['run', '--quiet', '--address', '127.0.0.1:0', file], { env });
    let output = '';
    const add = (c: Buffer) => {
      output = (output + c.toString()).slice(-keep);
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    let peakKb: number | undefined;
    let killed = false;
    // The high-water mark only grows: the last reading before k6 exits is its peak but for the
    // last instant, when k6 is writing its summary.
    const watch = setInterval(() => {
      const kb = child.pid === undefined ? undefined : highWaterKb(child.pid);
      if (kb !== undefined) peakKb = Math.max(peakKb ?? 0, kb);
      if (killAboveMb !== undefined && (peakKb ?? 0) > killAboveMb * 1024 && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    }, 50);
    child.on('error', (error) => {
      clearInterval(watch);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(watch);
      resolve({
        code,
        output,
        peakRssMb: peakKb === undefined ? undefined : Math.round(peakKb / 1024),
        wallMs: Date.now() - started,
        ...(killed ? { killed } : {}),
      });
    });
  });
}
