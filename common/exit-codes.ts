// The exit codes every command of the project ends with, once for both halves: the conformance
// CLI, the load launcher and the k6 summaries name them from here.

export const EXIT_PASSED = 0;
export const EXIT_FAILED = 1;
/** Nothing could be judged: configuration, setup, connection, the suite's own error. */
export const EXIT_SETUP = 2;
/** Load runs only: the run proved nothing either way. */
export const EXIT_INCONCLUSIVE = 3;

export type InterruptSignal = 'SIGINT' | 'SIGTERM';
/** The shell's convention: 128 + the signal number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type InterruptExitCode = (typeof SIGNAL_EXIT_CODES)[InterruptSignal];

/** The signal an exit code stands for, if it is an interruption's. */
export function signalOfExit(code: number): InterruptSignal | undefined {
  if (code === SIGNAL_EXIT_CODES.SIGINT) return 'SIGINT';
  if (code === SIGNAL_EXIT_CODES.SIGTERM) return 'SIGTERM';
  return undefined;
}
