// A busy loop on every core for the tests of one describe block: the probes must give the right
// verdict or say they cannot tell when k6 is starved of CPU, never a wrong one. Nothing is retried.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll } from 'vitest';

export function busyLoopsOnEveryCore(): void {
  let hogs: ChildProcess[] = [];
  beforeAll(() => {
    hogs = Array.from({ length: availableParallelism() }, () =>
      spawn('sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' }),
    );
  });
  afterAll(() => {
    for (const hog of hogs) hog.kill('SIGKILL');
  });
}
