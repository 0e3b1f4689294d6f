// Colour on a terminal only: vitest's colour library colours whenever TERM allows, even into a file
// or a pipe, so `npm run conformance > out.txt` carried escape codes. NO_COLOR and FORCE_COLOR win,
// as everywhere (https://no-color.org; FORCE_COLOR=0 means no colour).
import { Writable } from 'node:stream';

/** Whether output should be coloured. */
export function wantsColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}

/**
 * Settles the decision in the environment before vitest (and its workers) load, in the words its
 * colour library reads: NO_COLOR to switch off, FORCE_COLOR to switch on.
 */
export function settleColor(env: NodeJS.ProcessEnv, isTTY: boolean): void {
  if (wantsColor(env, isTTY)) {
    env.FORCE_COLOR = '1';
    delete env.NO_COLOR;
  } else {
    // The library reads the mere presence of FORCE_COLOR as "on", whatever its value.
    delete env.FORCE_COLOR;
    env.NO_COLOR = '1';
  }
}

// SGR sequences, the only escape codes vitest writes where the output is no terminal.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const SGR = /\u001b\[[0-9;]*m/g;

/**
 * The stream vitest writes to when output is not to be coloured. This process loaded vitest
 * (--import vitest/node, node-command.ts) before the CLI could settle anything, and its colour
 * library decided then, from TERM alone, and coloured its symbols once at load: settling the
 * environment reaches the workers, not those. This takes vitest's colour codes off its output.
 */
export function uncoloured(out: NodeJS.WriteStream): Writable {
  // The stream's own write, taken now: vitest replaces process.stdout.write while it draws its
  // summary and hands what it caught back to this stream, which must not go round again.
  const write = out.write.bind(out) as (text: string) => boolean;
  const stream = new Writable({
    // Written through at once, never held: the CLI may exit right after vitest's last line.
    write(chunk: Buffer | string, _encoding, done) {
      write(String(chunk).replace(SGR, ''));
      done();
    },
  });
  // Like process.stdout, never ended: vitest pipes its workers' output in, and a pipe ends its
  // destination when a worker's stream ends, which silenced everything after the first file.
  stream.end = (chunk?: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) stream.write(chunk);
    return stream;
  };
  return stream;
}
