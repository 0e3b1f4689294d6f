// vitest's default console tree, with the counts of the one outcome function: a non-strict SHOULD
// failure passes as a vitest test (it must not fail the run), so vitest alone would show it as a
// check mark and count it as passed. This shows it as "!" with its reason and counts it as failed
// in the file line and the "Tests" total, like every report. A check a filter left out is not shown.
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestModule, TestModuleState } from 'vitest/node';
import { DefaultReporter } from 'vitest/node';
import { firstLine } from '../client/errors.ts';
import { addOutcome, countsText, emptyCounts, type Outcome, outcomeOf } from './outcome.ts';

const isSoft = (o: Outcome | undefined): o is Extract<Outcome, { kind: 'failed' }> =>
  o?.kind === 'failed' && o.nonStrict;

type ModuleCounts = { tests: number; failed: number; skipped: number; todo: number };
type Printer = (this: DefaultReporter, module: TestModule, counts: ModuleCounts) => string;

export default class ConformanceTreeReporter extends DefaultReporter {
  private modules: readonly TestModule[] = [];

  constructor(options: ConstructorParameters<typeof DefaultReporter>[0] = {}) {
    super(options);
    // vitest keeps the file line's wording private: a SHOULD failure is added to its counts.
    const self = this as unknown as { getModuleLog: Printer };
    const original = self.getModuleLog;
    if (typeof original !== 'function') return;
    // A check a filter left out (--rule) is no part of the run: not counted as skipped either.
    self.getModuleLog = function (this: DefaultReporter, module, counts) {
      const outcomes = [...module.children.allTests()].map(outcomeOf);
      const soft = outcomes.filter(isSoft).length;
      const left = outcomes.filter((o) => o === undefined).length;
      const line = original.call(this, module, {
        ...counts,
        tests: counts.tests - left,
        skipped: Math.max(0, counts.skipped - left),
      });
      return soft ? `${line} | ${soft} SHOULD failed (non-strict)` : line;
    };
  }

  protected override printTestCase(moduleState: TestModuleState, test: TestCase): void {
    const outcome = outcomeOf(test);
    if (outcome === undefined) return;
    if (isSoft(outcome)) {
      let depth = 1;
      for (let p = test.parent; p.type === 'suite'; p = p.parent) depth++;
      const padding = '  '.repeat(depth);
      this.log(` ${padding}! ${test.name} — failed, SHOULD (non-strict): ${firstLine(outcome.reason)}`);
      return;
    }
    super.printTestCase(moduleState, test);
  }

  override onTestRunEnd(...args: Parameters<DefaultReporter['onTestRunEnd']>): void {
    this.modules = args[0];
    super.onTestRunEnd(...args);
  }

  override reportTestSummary(...args: Parameters<DefaultReporter['reportTestSummary']>): void {
    const counts = emptyCounts();
    for (const module of this.modules) {
      for (const test of module.children.allTests()) addOutcome(counts, outcomeOf(test));
    }
    // vitest's "Tests" line counts a SHOULD failure as passed: replaced by the outcome counts.
    const log = this.log.bind(this);
    this.log = (...messages: unknown[]) => {
      const [title] = messages;
      if (typeof title === 'string' && stripVTControlCharacters(title).trim() === 'Tests') {
        log(title, countsText(counts));
      } else log(...messages);
    };
    try {
      super.reportTestSummary(...args);
    } finally {
      // Back to the prototype's log.
      delete (this as { log?: unknown }).log;
    }
  }
}
