// Running `src/cli/load.ts` as the npm scripts do, in a child process, with a chosen environment.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NodeRun, runTs } from '../support/run-node.ts';

export { ROOT } from '../support/run-node.ts';
export type CliRun = NodeRun;

/** Variables of .env.example, blanked so a developer's own environment does not leak in. */
export const BLANK_TARGET = {
  CONFORMANCE_TARGET: '',
  API_BASE_URL: '',
  PETSTORE_BASE_URL: '',
  CLIENT_ID: '',
  CLIENT_SECRET: '',
  API_KEY_ID: '',
  API_KEY_SECRET: '',
  PINNED_API_KEY_ID: '',
  PINNED_API_KEY_SECRET: '',
  DISABLED_FEATURE_ROUTE: '',
  EXPIRED_ACCESS_TOKEN: '',
  ALLOW_PRODUCTION_WRITES: '',
  REFERENCE_CONTROL_URL: '',
  K6_REPORT_DIR: '',
  LOAD_TARGET: '',
  LOAD_PROFILE: '',
  RELEASE_PETS: '',
  FORCE_COLOR: '0',
};

/**
 * A run the launcher refuses writes its "did not run" entry in the reports folder: a test that names
 * none gets a scratch folder, so no test writes into the checkout's reports/.
 */
let scratch: string | undefined;
function reportsFolder(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.K6_REPORT_DIR || env.CONFORMANCE_REPORTS_DIR) return {};
  scratch ??= mkdtempSync(join(tmpdir(), 'load-cli-reports-'));
  return { K6_REPORT_DIR: scratch };
}

export function runLoadCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return runTs('src/cli/load.ts', args, {
    env: { ...process.env, ...BLANK_TARGET, ...reportsFolder(env), ...env },
  });
}

/**
 * A stand-in `k6` on PATH that records its argv and environment and exits with FAKE_K6_EXIT: shows
 * what the CLI hands to k6 without needing k6.
 */
export function fakeK6(): { dir: string; argvFile: string; envFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-k6-'));
  const argvFile = join(dir, 'argv');
  const envFile = join(dir, 'env');
  const script = join(dir, 'k6');
  writeFileSync(
    script,
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\nenv > '${envFile}'\nexit "\${FAKE_K6_EXIT:-0}"\n`,
  );
  chmodSync(script, 0o755);
  return { dir, argvFile, envFile };
}
