// The verdict of a run in one sentence, said the same way by the console, summary.md and
// index.html: what failed, then how much of the spec the run actually checked, so a run that
// skipped rules never reads as plain "conformant".
import { EXIT_SETUP, signalOfExit } from '../../common/exit-codes.ts';
import { NOT_RUN_REASON } from './outcome.ts';
import { coverageText, failureCounts, softFailuresText } from './results.ts';
import type { ConformanceResults } from './types.ts';

export function verdictOf(results: Pick<ConformanceResults, 'checks' | 'exitCode' | 'coverage'>): string {
  const coverage = coverageText(results.coverage);
  if (results.exitCode === EXIT_SETUP) return `Run problem: the run could not check everything; ${coverage}`;
  const { hard, soft, advice } = failureCounts(results);
  const signal = signalOfExit(results.exitCode);
  if (signal) {
    // Interrupted: what finished, never "conformant" (the rest was not checked).
    const notRun = results.checks.filter((c) => c.status === 'skipped' && c.reason === NOT_RUN_REASON).length;
    const finished = results.checks.length - notRun;
    const failed = hard + soft + advice ? `, ${hard + soft + advice} failed` : '';
    return `Interrupted (${signal}): ${finished} of ${results.checks.length} checks finished${failed}; ${coverage}`;
  }
  const should = softFailuresText(soft, advice);
  if (hard) return `${hard} check${hard > 1 ? 's' : ''} failed${should ? `, ${should}` : ''}; ${coverage}`;
  const complete = results.coverage.unchecked.length === 0;
  if (should) return `${complete ? 'Conformant' : 'No MUST failure'}: ${should}; ${coverage}`;
  return complete
    ? `Conformant: every check passed; ${coverage}`
    : `Every check that ran passed; ${coverage}`;
}

/** "PAG-09 (MUST): set EXPIRED_ACCESS_TOKEN ...": what would check each rule this run did not. */
export function uncheckedLines(results: Pick<ConformanceResults, 'coverage'>): string[] {
  return results.coverage.unchecked.map((u) => `${u.id} (${u.level}): ${u.why}`);
}
