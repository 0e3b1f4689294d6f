// k6's exit code as the CLI's: 0 passed, 1 for crossed thresholds (a failed run, like a failed
// check), anything else passed on with one line naming what k6 meant by it.

// From k6's errext/exitcodes package.
const K6_EXIT_CODES: Record<number, string> = {
  97: 'the cloud test run failed',
  98: 'k6 lost the cloud test progress',
  99: 'thresholds failed',
  100: 'setup() timed out',
  101: 'teardown() timed out',
  102: 'a timeout',
  103: 'stopped through the REST API',
  104: 'invalid k6 options',
  105: 'aborted by a signal',
  106: 'the REST API could not start',
  107: 'the script threw an error (often a refused configuration, see above)',
  108: 'the script aborted the test',
  109: 'k6 crashed (Go panic)',
};

export interface LoadExit {
  code: number;
  /** One line for stderr, or undefined when there is nothing to add. */
  message?: string;
}

export function loadExit(code: number | null, signal: NodeJS.Signals | null): LoadExit {
  if (code === null) return { code: 2, message: `k6 was stopped by ${signal ?? 'a signal'}` };
  if (code === 0) return { code: 0 };
  if (code === 99) return { code: 1, message: 'thresholds failed (k6 exit code 99): see the report above' };
  const meaning = K6_EXIT_CODES[code];
  return { code, message: `k6 exited with code ${code}${meaning ? `: ${meaning}` : ''}` };
}
