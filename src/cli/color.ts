// Colour on a terminal only: vitest's colour library colours whenever TERM allows, even into a file
// or a pipe, so `npm run conformance > out.txt` carried escape codes. NO_COLOR and FORCE_COLOR win,
// as everywhere (https://no-color.org; FORCE_COLOR=0 means no colour).
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
