// Ending a command without losing what it printed. process.exit() drops whatever a pipe has not
// yet taken: Node writes to a pipe asynchronously on POSIX, so a 225 KB `faults --json` line read
// by a busy parent (CI, a test) arrived cut short. Each stream calls back once everything written
// before has been handed to the operating system.
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) {
      resolve();
      return;
    }
    stream.write('', () => resolve());
  });
}

/** Exits with `code` once stdout and stderr hold nothing unwritten. */
export async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
