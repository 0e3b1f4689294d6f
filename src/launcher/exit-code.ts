// k6's exit code and the run's verdict as the CLI's exit code: 0 passed, 1 failed (k6's 99: a
// threshold or verdict failed), 3 inconclusive (the probe could not put its rule to the test),
// 130/143 interrupted by SIGINT/SIGTERM; anything else passed on with one line naming what k6
// meant by it. 2 (configuration, refused target, missing k6) is decided before k6 starts.

import { EXIT_INCONCLUSIVE, SIGNAL_EXIT_CODES } from '../../common/exit-codes.ts';
import type { RunVerdict } from '../../load/lib/summary/report.ts';

export { EXIT_INCONCLUSIVE };
export const EXIT_SIGINT = SIGNAL_EXIT_CODES.SIGINT;
export const EXIT_SIGTERM = SIGNAL_EXIT_CODES.SIGTERM;

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

export const K6_ABORTED_BY_SIGNAL = 105;
const K6_ABORTED_BY_SCRIPT = 108;

export interface LoadExit {
  code: number;
  /** The last line on stderr: the verdict and the exit code (undefined only before k6 ran). */
  message?: string;
}

export interface RunFacts {
  /** The verdict the run's report gives, when there is a report. */
  verdict?: RunVerdict | undefined;
  verdictReason?: string | undefined;
  /** The signal that stopped the run (received by the CLI), when it was stopped. */
  interruptedBy?: NodeJS.Signals | undefined;
}

export function loadExit(code: number | null, signal: NodeJS.Signals | null, facts: RunFacts = {}): LoadExit {
  const interrupted =
    facts.interruptedBy ??
    (code === K6_ABORTED_BY_SIGNAL || code === null ? (signal ?? 'SIGINT') : undefined);
  if (interrupted !== undefined) {
    return {
      code: interrupted === 'SIGTERM' ? EXIT_SIGTERM : EXIT_SIGINT,
      message: `interrupted by ${interrupted}: the reports are marked "interrupted"`,
    };
  }
  if (code === null) return { code: EXIT_SIGINT, message: 'k6 was stopped by a signal' };
  if (code === 0 || code === 99) {
    if (facts.verdict === 'inconclusive') {
      return {
        code: EXIT_INCONCLUSIVE,
        message: `inconclusive (exit ${EXIT_INCONCLUSIVE}): ${facts.verdictReason ?? 'see the report'}`,
      };
    }
    if (code === 0 && facts.verdict !== 'failed') return { code: 0, message: 'passed (exit 0)' };
    return { code: 1, message: 'failed (k6 exit code 99): see the report above' };
  }
  // The script stopped the run itself (test.abort: nothing could be load-tested, or a threshold
  // that aborts): its report's verdict says what that means, as for a run that ended.
  if (code === K6_ABORTED_BY_SCRIPT && facts.verdict === 'inconclusive') {
    return {
      code: EXIT_INCONCLUSIVE,
      message: `inconclusive (exit ${EXIT_INCONCLUSIVE}): ${facts.verdictReason ?? 'the script stopped the run; see the report'}`,
    };
  }
  if (code === K6_ABORTED_BY_SCRIPT && facts.verdict === 'failed') {
    return {
      code: 1,
      message: 'failed (k6 exit code 108: the script stopped the run): see the report above',
    };
  }
  const meaning = K6_EXIT_CODES[code];
  return { code, message: `k6 exited with code ${code}${meaning ? `: ${meaning}` : ''}` };
}
