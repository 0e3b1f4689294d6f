// A command that prints more than a pipe holds and then exits must not lose the rest to a parent
// that reads slowly (CI under load): the 225 KB fault matrix arrived cut short that way.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeArgsFor } from '../../src/cli/node-command.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BYTES = 1_000_000;

function slowReader(code: string): Promise<{ bytes: number; exit: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor('test/cli/exit-child.ts'), code, String(BYTES)], {
      cwd: ROOT,
    });
    let bytes = 0;
    child.stdout.pause();
    // The parent is busy for a while: the child's writes back up behind the pipe's 64 KiB.
    setTimeout(() => child.stdout.resume(), 300);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.on('error', reject);
    child.on('close', (exit) => resolve({ bytes, exit }));
  });
}

describe('exitAfterOutput', () => {
  it('hands every byte to a slow reader before exiting with the code given', async () => {
    const run = await slowReader('3');
    expect(run.exit).toBe(3);
    expect(run.bytes).toBe(BYTES + 1);
  }, 30_000);
});
