// Where the reports go: reports/ unless CONFORMANCE_REPORTS_DIR names another folder (CI jobs that
// keep several runs apart, the tests that run the CLI). Read from the environment only, never .env:
// the CLI checks and locks the folder before anything else, and the conformance reporter, which
// vitest loads in the same process, must find the same folder without reading any file.
export function reportsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports';
}
