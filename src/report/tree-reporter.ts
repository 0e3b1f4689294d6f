// vitest's default console tree, with the counts of the one outcome function: a non-strict SHOULD
// failure passes as a vitest test (it must not fail the run), so vitest alone would show it as a
// check mark and count it as passed. This shows it as "!" with its reason and counts it as failed
// in the file line and the "Tests" total, like every report. A check a filter left out is not shown.
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestModule, TestModuleState, TestSuite, Vitest } from 'vitest/node';
import { DefaultReporter } from 'vitest/node';
import { terminalText } from '../../common/safe-text.ts';
import { createSecretFilter, type SecretFilter } from '../../common/secret-filter.ts';
import type { InvariantResult } from '../checks/invariants.ts';
import { firstLine } from '../client/errors.ts';
import { learnedValues } from '../client/learned-secrets.ts';
import { secretValues } from '../config/index.ts';
import { invariantOutcome, invariantsOfRun } from './invariant-outcomes.ts';
import { addOutcome, countsText, emptyCounts, type Outcome, outcomeOf, SELF_PROJECT } from './outcome.ts';

const isSoft = (o: Outcome | undefined): o is Extract<Outcome, { kind: 'failed' }> =>
  o?.kind === 'failed' && o.nonStrict;

/** How much of a SHOULD failure's reason its "!" line shows (the reports have it whole). */
const SOFT_REASON_SHOWN = 300;

export default class ConformanceTreeReporter extends DefaultReporter {
  private modules: readonly TestModule[] = [];
  private invariants: InvariantResult[] = [];

  /**
   * A file's line and its tests, counted by the one outcome function: a SHOULD failure as failed,
   * a check a filter left out (--rule) not at all. vitest's own wording of the file line is
   * private to it, so the line is written here, from the public pieces.
   */
  protected override printTestModule(testModule: TestModule): void {
    const state = testModule.state();
    if (state === 'queued' || state === 'pending') return;
    const lines: string[] = [];
    const log = this.log.bind(this);
    this.log = (...messages: unknown[]) => {
      lines.push(messages.map(String).join(' '));
    };
    const visit = (children: Iterable<TestCase | TestSuite>) => {
      for (const child of children) {
        if (child.type === 'suite') {
          this.printTestSuite(child);
          visit(child.children);
        } else this.printTestCase(state, child);
      }
    };
    try {
      visit(testModule.children);
    } finally {
      this.log = log;
    }
    this.log(this.moduleLine(testModule));
    for (const line of lines) this.log(line);
  }

  private moduleLine(testModule: TestModule): string {
    const outcomes = [...testModule.children.allTests()].map(outcomeOf).filter((o) => o !== undefined);
    const n = (kind: Outcome['kind'], soft = false) =>
      outcomes.filter((o) => o.kind === kind && (kind !== 'failed' || isSoft(o) === soft)).length;
    const parts = [`${outcomes.length} test${outcomes.length === 1 ? '' : 's'}`];
    if (n('failed')) parts.push(`${n('failed')} failed`);
    const skipped = n('skipped') + n('not-run');
    if (skipped) parts.push(`${skipped} skipped`);
    const soft = n('failed', true);
    const duration = testModule.diagnostic().duration;
    return ` ${this.getEntityPrefix(testModule)} ${testModule.relativeModuleId} (${parts.join(' | ')}) ${Math.round(duration)}ms${soft ? ` | ${soft} SHOULD or advice failed (not failing the run)` : ''}`;
  }

  private run: Vitest | undefined;

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    this.run = vitest;
  }

  /**
   * The run's secrets as this thread knows them: the configured ones (as global setup provided
   * them) and the tokens the workers learned (learned-secrets.ts). A check redacts its failure
   * itself; this catches a token another worker learned a moment too late for it.
   */
  private secrets(): SecretFilter {
    const project = this.run?.projects.find((p) => p.name !== SELF_PROJECT);
    const target = project?.getProvidedContext().target;
    return createSecretFilter([...(target ? secretValues(target) : []), ...learnedValues()]);
  }

  protected override printTestCase(moduleState: TestModuleState, test: TestCase): void {
    const outcome = outcomeOf(test);
    if (outcome === undefined) return;
    if (isSoft(outcome)) {
      let depth = 1;
      for (let p = test.parent; p.type === 'suite'; p = p.parent) depth++;
      const padding = '  '.repeat(depth);
      // The reason holds the target's words: one line, safe for a terminal and a CI log.
      const reason = terminalText(this.secrets().text(outcome.reason), { max: SOFT_REASON_SHOWN });
      const kind =
        test.meta().conformance?.level === 'ADVICE' ? 'advice, not the spec' : 'SHOULD (non-strict)';
      this.log(` ${padding}! ${test.name} — failed, ${kind}: ${reason}`);
      return;
    }
    super.printTestCase(moduleState, test);
  }

  override onTestRunEnd(...args: Parameters<DefaultReporter['onTestRunEnd']>): void {
    this.modules = args[0];
    // vitest prints the failures' errors next, from these objects: the same filter first.
    const filter = this.secrets();
    const redact = (errors: readonly { message?: string; stack?: string }[] | undefined) => {
      for (const e of (errors ?? []) as { message?: string; stack?: string }[]) {
        if (e.message) e.message = filter.text(e.message);
        if (e.stack) e.stack = filter.text(e.stack);
      }
    };
    for (const module of this.modules) {
      redact(module.errors());
      for (const test of module.children.allTests()) redact(test.result().errors);
    }
    // The invariants over every exchange (src/checks/invariants.ts), shown like checks.
    this.invariants = invariantsOfRun(this.modules);
    if (this.invariants.length) this.log(' invariants over every exchange of the run');
    for (const r of this.invariants) {
      const o = invariantOutcome(r);
      const name = `${r.id} ${r.title}`;
      if (o.kind === 'passed') this.log(`   ✓ ${name}`);
      else if (o.kind === 'failed' && o.nonStrict)
        this.log(
          `   ! ${name} — failed, ${r.level === 'ADVICE' ? 'advice, not the spec' : 'SHOULD (non-strict)'}: ${terminalText(firstLine(filter.text(o.reason)), { max: SOFT_REASON_SHOWN })}`,
        );
      else if (o.kind === 'failed')
        this.log(
          `   × ${name} — ${terminalText(firstLine(filter.text(o.reason)), { max: SOFT_REASON_SHOWN })}`,
        );
      else
        this.log(
          `   ↓ ${name} [skipped: ${terminalText(firstLine(filter.text(o.reason)), { max: SOFT_REASON_SHOWN })}]`,
        );
    }
    super.onTestRunEnd(...args);
  }

  override reportTestSummary(...args: Parameters<DefaultReporter['reportTestSummary']>): void {
    const counts = emptyCounts();
    for (const module of this.modules) {
      for (const test of module.children.allTests()) addOutcome(counts, outcomeOf(test));
    }
    for (const r of this.invariants) addOutcome(counts, invariantOutcome(r));
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
