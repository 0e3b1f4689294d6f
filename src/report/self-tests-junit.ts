// reports/self-tests.junit.xml: the suite's own self-tests (the `self` vitest project) as JUnit, so
// CI shows them beside the conformance checks (reports/junit.xml). Written by the one JUnit writer
// (common/junit.ts), one suite per test file; only when the run ran self-tests.
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { type JunitCase, type JunitSuite, renderJunitXml } from '../../common/junit.ts';
import { firstLine } from '../client/errors.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { outcomeOf, SELF_PROJECT } from './outcome.ts';
import { reportsDir } from './reports-dir.ts';
import { makeFolder } from './reports-dir-check.ts';

export const SELF_TESTS_JUNIT = 'self-tests.junit.xml';

/** "describe > it", as vitest names a test in its own reports. */
function fullName(test: TestCase): string {
  const names = [test.name];
  for (let p = test.parent; p.type === 'suite'; p = p.parent) names.unshift(p.name);
  return names.join(' > ');
}

/** A self-test's error: our own words, vitest's colour codes taken off. */
const plain = (text: string) => stripVTControlCharacters(text).trim();

function caseOf(test: TestCase, file: string): JunitCase | undefined {
  const outcome = outcomeOf(test);
  if (!outcome) return undefined;
  const base = { classname: file, name: fullName(test), time: (test.diagnostic()?.duration ?? 0) / 1000 };
  if (outcome.kind === 'passed') return base;
  if (outcome.kind === 'failed') {
    const errors = test.result().errors ?? [];
    const body = errors.map((e) => plain(e.stack ?? e.message ?? 'failed')).join('\n\n');
    return {
      ...base,
      failure: { message: firstLine(plain(outcome.reason)), type: 'AssertionError', body },
    };
  }
  return { ...base, skipped: plain(outcome.reason) };
}

export function renderSelfTestsJunit(
  modules: ReadonlyArray<TestModule>,
  startedAt: Date,
  durationMs: number,
): string {
  const suites: JunitSuite[] = modules.map((m) => {
    const cases = [...m.children.allTests()]
      .map((t) => caseOf(t, m.relativeModuleId))
      .filter((c) => c !== undefined);
    // A file that could not load has no tests: one error case says why.
    const errors = m.errors();
    if (!cases.length && errors.length) {
      cases.push({
        classname: m.relativeModuleId,
        name: 'the file loads',
        error: {
          message: plain(errors[0]?.message ?? 'could not load'),
          body: errors.map((e) => plain(e.stack ?? e.message)).join('\n\n'),
        },
      });
    }
    return { name: m.relativeModuleId, timestamp: startedAt.toISOString(), cases };
  });
  return renderJunitXml({ name: 'payments-crm self-tests', time: durationMs / 1000, suites });
}

export default class SelfTestsJunitReporter implements Reporter {
  private root = process.cwd();
  private startedAt = new Date();
  /** Folder of the file, relative to the vitest root (default: the reports folder). */
  private readonly outputDir: string | undefined;

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir;
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunStart(): void {
    this.startedAt = new Date();
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const self = modules.filter((m) => m.project.name === SELF_PROJECT);
    if (!self.length) return;
    const dir = resolve(this.root, this.outputDir ?? reportsDir());
    try {
      await makeFolder(dir);
      const xml = renderSelfTestsJunit(self, this.startedAt, Date.now() - this.startedAt.getTime());
      await writeFileAtomic(join(dir, SELF_TESTS_JUNIT), xml);
    } catch (error) {
      process.stderr.write(`self-tests JUnit: not written: ${(error as Error).message}\n`);
    }
  }
}
