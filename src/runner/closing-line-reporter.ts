// Prints one plain closing line, "tests: N passed, N failed, N skipped", that CI systems and
// people can read at a glance whatever else vitest printed above it. The counts come from the one
// outcome function (src/report/outcome.ts), so a non-strict SHOULD failure counts as failed here
// exactly as in the reports.
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { invariantOutcome, invariantsOfRun } from '../report/invariant-outcomes.ts';
import { addOutcome, countsText, emptyCounts, outcomeOf, SELF_PROJECT } from '../report/outcome.ts';
import { reportsSettled } from '../report/reports-settled.ts';

export default class ClosingLineReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    // Beside the self-tests (npm test) the conformance table ends "the closing line below": printed
    // after it. A conformance run alone ends on the table's verdict and exit code, as it was.
    if (testModules.some((m) => m.project.name === SELF_PROJECT)) await reportsSettled();
    const counts = emptyCounts();
    for (const module of testModules) {
      // A file that failed to load counts as one failure: its checks never ran.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++;
      for (const test of module.children.allTests()) addOutcome(counts, outcomeOf(test));
    }
    for (const r of invariantsOfRun(testModules)) addOutcome(counts, invariantOutcome(r));
    // Through vitest's logger: the same stream as the tree above it.
    const line = `\ntests: ${countsText(counts)}`;
    if (this.vitest) this.vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }
}
