// Where the reports go: reports/ unless CONFORMANCE_REPORTS_DIR names another folder (CI jobs that
// keep several runs apart, the tests that run the CLI). Read from the environment only, because
// vitest's JUnit reporter needs it before any .env is read.
export function reportsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports';
}
