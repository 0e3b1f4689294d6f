import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { reportsDir } from './src/report/reports-dir.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'self',
          include: ['test/**/*.test.ts'],
          // After the conformance suites (their own worker count needs their own group).
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['src/runner/global-setup.ts'],
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
    reporters: [
      'default',
      './src/runner/closing-line-reporter.ts',
      // One testsuite per suite file, i.e. per spec area; the classname names the area.
      [
        'junit',
        {
          outputFile: join(reportsDir(), 'junit.xml'),
          suiteName: 'payments-crm conformance',
          classnameTemplate: ({ filename }: { filename: string }) =>
            filename.replace(/^suites\//, '').replace(/\.test\.ts$/, ''),
          includeConsoleOutput: false,
        },
      ],
      './src/report/vitest-reporter.ts',
    ],
    passWithNoTests: true,
    // Most tests wait on sockets and child processes, not the CPU.
    maxWorkers: 4,
  },
});
