import { defineConfig } from 'vitest/config';
import { conformanceTags } from './src/rules/tags.ts';

// Rule ids and areas are the tags of the checks (src/rules/tags.ts); vitest refuses any other tag.
const tags = conformanceTags();

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'self',
          include: ['test/**/*.test.ts'],
          // Some self-tests declare checks (area(), check()), which carry these tags.
          tags,
          // Many self-tests start servers and child processes: on a busy 2-core machine vitest's
          // 5 s default failed tests that were only slow. A hung test still fails, at 20 s.
          testTimeout: 20_000,
          // After the conformance suites (their own worker count needs their own group).
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          tags,
          globalSetup: ['src/runner/global-setup.ts'],
          // A matcher's message holds the target's values whole: chai would cut them at 40
          // characters before check() redacts them, and a cut secret is no longer recognised.
          chaiConfig: { truncateThreshold: 0 },
          testTimeout: 30_000,
          // The suites keep no state between files: sharing warm workers saves more time than
          // the checks themselves take (npm run bench).
          pool: 'threads',
          isolate: false,
          // Two warm workers: a run is a handful of round trips deep, and more workers only import
          // the same modules again (npm run bench).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
    ],
    // The console tree, the closing line and the reports all count through one outcome function
    // (src/report/outcome.ts). junit.xml is written by the conformance reporter from the results,
    // once, so it agrees with results.json, summary.md and index.html.
    reporters: [
      './src/report/tree-reporter.ts',
      './src/report/vitest-reporter.ts',
      // The self-tests as JUnit beside the checks' (reports/self-tests.junit.xml), for CI's view.
      './src/report/self-tests-junit.ts',
      // Last: the closing line is what the command's exit code says, below everything else.
      './src/runner/closing-line-reporter.ts',
    ],
    passWithNoTests: true,
    // Transformed modules kept on disk between runs (keyed by file content, in node_modules, so a
    // reinstall clears them): a conformance run otherwise spends a third of its time transforming
    // the same unchanged TypeScript again (npm run bench).
    experimental: { fsModuleCache: true },
    // Most tests wait on sockets and child processes, not the CPU.
    maxWorkers: 4,
  },
});
