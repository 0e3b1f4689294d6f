// Colour codes off vitest's output where the run is not to be coloured (src/cli/color.ts settles
// that before vitest starts; this is how the runner keeps it when vitest decided otherwise).
import { Writable } from 'node:stream';

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
