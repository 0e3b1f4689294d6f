// Drives one vitest run of the conformance suites for the CLI, with the interrupt handling of
// interrupts.ts in place of vitest's own (which ends the process at the first signal, before any
// report is written). Returns the exit code the reporter decided, when it says.

import { createVitest, type TestModule } from 'vitest/node';
import type { HandedOver } from '../checks/meta.ts';
import { firstLine } from '../client/errors.ts';
import type { InterruptHandling } from './interrupts.ts';
import { PROJECT_VITEST } from './project-root.ts';
import { uncoloured } from './uncoloured.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** What the conformance reporter offers the CLI (found by shape: vitest loads it as its own module). */
interface ConformanceReporting {
  conformanceResults?: { exitCode: number };
  writeInterrupted(modules: ReadonlyArray<TestModule>): Promise<unknown>;
}

function isConformanceReporting(reporter: unknown): reporter is ConformanceReporting {
  return typeof (reporter as Partial<ConformanceReporting>)?.writeInterrupted === 'function';
}

export interface SuiteSelection {
  files: string[];
  /** vitest's tags filter: the checks' rule and area tags (src/rules/tags.ts). */
  tagsFilter?: string[];
  /** vitest's test-name pattern: the selected checks by id (src/cli/selection.ts). */
  testNamePattern?: RegExp;
}

export async function runSuites(
  selection: SuiteSelection,
  interrupts: InterruptHandling,
  handedOver: HandedOver,
): Promise<number | undefined> {
  // As vitest's own startVitest does before it creates the run.
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  // Colour was settled in the environment (src/cli/color.ts); vitest, loaded before, decided
  // from TERM: without colour its output goes through a stream that takes the codes off.
  const plain = process.env.NO_COLOR
    ? { stdout: uncoloured(process.stdout), stderr: uncoloured(process.stderr) }
    : {};
  const vitest = await createVitest(
    'test',
    {
      ...PROJECT_VITEST,
      project: ['conformance'],
      watch: false,
      run: true,
      ...(selection.tagsFilter ? { tagsFilter: selection.tagsFilter } : {}),
      ...(selection.testNamePattern ? { testNamePattern: selection.testNamePattern } : {}),
    },
    {},
    plain,
  );
  // Global setup (another module instance) takes the validated settings from here, not from the
  // environment or .env again.
  vitest.provide('handedOver', handedOver);
  // vitest's logger ends the process on the first signal: the handling in interrupts.ts replaces it.
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.off(signal, listener);
    }
  }
  // vitest's reporter instances are not in its typings, but have been `vitest.reporters` since v1.
  const instances = (vitest as unknown as { reporters?: unknown }).reporters;
  const reporter = (Array.isArray(instances) ? instances : []).find(isConformanceReporting);
  interrupts.attach({
    stop: () => vitest.cancelCurrentRun('keyboard-input'),
    report: async () => reporter?.writeInterrupted(vitest.state.getTestModules()),
  });
  try {
    await vitest.start(selection.files);
  } catch (error) {
    process.stderr.write(`conformance: ${firstLine(error)}\n`);
  } finally {
    await vitest.close();
  }
  const decided = reporter?.conformanceResults?.exitCode;
  // A signal that came after the run had reported: its reports say how it ended, and so does the exit code.
  if (decided !== undefined && decided < 128) return decided;
  // Interrupted, and the checks in flight finished in time: the reporter has written the reports.
  await interrupts.exitIfInterrupted();
  return decided;
}
