import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'self',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['src/runner/global-setup.ts'],
          testTimeout: 30_000,
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
          outputFile: 'reports/junit.xml',
          suiteName: 'payments-crm conformance',
          classnameTemplate: ({ filename }: { filename: string }) =>
            filename.replace(/^suites\//, '').replace(/\.test\.ts$/, ''),
          includeConsoleOutput: false,
        },
      ],
      './src/report/vitest-reporter.ts',
    ],
    passWithNoTests: true,
  },
});
