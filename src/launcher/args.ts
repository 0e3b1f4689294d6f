// The load CLI's arguments: the script name, --profile, and everything else for k6.
//   npm run load:release -- --profile stress --env RELEASE_VUS=40 -- --quiet
import { PROFILES } from '../../load/lib/profile.ts';
import { RESERVED_VARIABLES } from './k6-env.ts';
import { isLoadScript, type LoadScriptName } from './scripts.ts';

export const LOAD_USAGE = `usage: npm run load:<rate-limit|flag-cache|release> [-- [--profile ${PROFILES.join('|')}] [k6 run options]]
  --profile NAME  LOAD_PROFILE of every script (smoke, load, stress, soak; docs/load.md says which apply)
  --runners N     release only: N k6 processes on consecutive execution segments, started together,
                  judged as one run on the union of their raw samples (docs/load.md)
  --live          k6's web dashboard live on http://127.0.0.1:5665 while the run lasts (its report
                  reports/k6-<script>.html is written either way)
  anything else   passed to \`k6 run\` as it is (e.g. --env RATE_BUDGET=90s, --quiet);
                  after a second \`--\`, everything is passed to k6 unread
Target and credentials come from .env and the environment (docs/load.md), never from --env.

variables (.env or the environment; docs/configuration.md lists them all):
  CONFORMANCE_TARGET, API_BASE_URL, PETSTORE_BASE_URL, CLIENT_ID, CLIENT_SECRET, API_KEY_ID,
  API_KEY_SECRET            the target and its credentials (local: the embedded reference server)
  ALLOW_PRODUCTION_WRITES   yes lets a load run reach production; anything else refuses it
  LOAD_PROFILE              the profile when --profile is not given
  K6_REPORT_DIR             folder of the reports (default CONFORMANCE_REPORTS_DIR, else reports)
  RATE_*, FLAG_*, RELEASE_*, LOCAL_*   each script's settings (also as --env NAME=VALUE)

exit codes: 0 passed, 1 failed, 2 configuration, arguments, a refused target, k6 missing or the
  target unreachable (before k6 starts: the reports get a "did not run" entry), 3 inconclusive,
  130 / 143 interrupted; any other code is k6's own (255, 104: k6 refused its arguments)
docs: docs/load.md`;

/** Set by the CLI from the resolved target: overriding them with --env would bypass the guard. */
const RESERVED = new Set<string>(RESERVED_VARIABLES);

export interface LoadArgs {
  script: LoadScriptName;
  profile: string | undefined;
  k6Args: string[];
  help: boolean;
  /** The dashboard's live view on 127.0.0.1:5665 (off: an ephemeral loopback port, see dashboard.ts). */
  live: boolean;
  /** --runners N: the load split over N k6 processes, judged as one run (split-run.ts). */
  runners: number | undefined;
}

export class LoadUsageError extends Error {}

/**
 * `k6 run` flags that do what the refused K6_* variables do (k6-env.ts): passed on the command line
 * (even after a second `--`) they would let a failing run pass, print the traffic with its secrets,
 * or send it elsewhere, so they are refused the same way, each with what it would do.
 */
export const REFUSED_K6_FLAGS: Readonly<Record<string, string>> = {
  '--no-thresholds': 'turns off the thresholds the verdict is made of, so a failing run would pass',
  '--http-debug': 'prints every request and answer, credentials and tokens included',
  '--out': 'sends every metric (addresses, tags) to another place',
  '-o': 'sends every metric (addresses, tags) to another place',
  '--insecure-skip-tls-verify': 'accepts any certificate, so an impostor would be measured',
  '--no-summary': 'skips the summary the reports are written from',
  '--include-system-env-vars': 'hands the whole environment, secrets included, to the scripts',
  '--no-setup': 'skips the setup the scripts check the target in',
  '--no-teardown': 'skips the teardown',
  '--max-redirects': 'follows redirects the scripts judge',
  '--dns': 'changes how host names are resolved',
  '--blacklist-ip': 'makes requests fail that the target never saw',
  '--block-hostnames': 'makes requests fail that the target never saw',
  '--log-output': 'sends the log, which holds target text, to another place',
  '--console-output': 'sends the console to another place',
};

function checkK6Flag(arg: string): void {
  const flag = arg.split('=')[0] ?? arg;
  const effect = REFUSED_K6_FLAGS[flag];
  // The value is not repeated: --out may carry a token.
  if (effect !== undefined) throw new LoadUsageError(`${flag} is not allowed: it ${effect}`);
}

function checkEnvArg(value: string | undefined): void {
  const name = value?.split('=')[0]?.trim() ?? '';
  if (name === 'LOAD_PROFILE') {
    // Handed over with the target, like it: --profile is the way on the command line.
    throw new LoadUsageError('--env LOAD_PROFILE=... is not allowed: use --profile NAME');
  }
  if (RESERVED.has(name)) {
    // The value is not repeated: it may be a secret.
    throw new LoadUsageError(
      `--env ${name}=... is not allowed: set ${name} in .env or the environment, where the production guard sees it`,
    );
  }
}

export function parseLoadArgs(argv: readonly string[]): LoadArgs {
  const [script, ...rest] = argv;
  if (script === undefined || !isLoadScript(script)) {
    throw new LoadUsageError(`unknown load script ${JSON.stringify(script ?? '')}\n${LOAD_USAGE}`);
  }
  let profile: string | undefined;
  let help = false;
  let live = false;
  let runners: number | undefined;
  const k6Args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') {
      const tail = rest.slice(i + 1);
      tail.forEach((a, j) => {
        checkK6Flag(a);
        if (a === '--env' || a === '-e') checkEnvArg(tail[j + 1]);
        else if (a.startsWith('--env=')) checkEnvArg(a.slice(6));
      });
      k6Args.push(...tail);
      break;
    }
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '--live') live = true;
    else if (arg === '--runners' || arg.startsWith('--runners=')) {
      const value = arg === '--runners' ? rest[++i] : arg.slice('--runners='.length);
      if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64) {
        throw new LoadUsageError('--runners must be a whole number from 1 to 64');
      }
      runners = Number(value);
    } else if (arg === '--profile' || arg.startsWith('--profile=')) {
      const value = arg === '--profile' ? rest[++i] : arg.slice('--profile='.length);
      if (value === undefined || !(PROFILES as readonly string[]).includes(value.toLowerCase())) {
        throw new LoadUsageError(`--profile must be one of ${PROFILES.join(', ')}`);
      }
      profile = value.toLowerCase();
    } else {
      checkK6Flag(arg);
      if (arg === '--env' || arg === '-e') checkEnvArg(rest[i + 1]);
      else if (arg.startsWith('--env=')) checkEnvArg(arg.slice(6));
      k6Args.push(arg);
    }
  }
  if (runners !== undefined) {
    if (script !== 'release') {
      throw new LoadUsageError(
        `--runners is for release only: ${script} judges one place's answers (docs/load.md, past one machine)`,
      );
    }
    if (live)
      throw new LoadUsageError('--live is not allowed with --runners: each runner would show its share only');
    // Each runner's REST API port, pause and output are the launcher's own.
    for (const a of k6Args) {
      const flag = a.split('=')[0] ?? a;
      if (
        ['--address', '-a', '--paused', '-p', '--execution-segment', '--execution-segment-sequence'].includes(
          flag,
        )
      ) {
        throw new LoadUsageError(
          `${flag} is not allowed with --runners: the launcher sets it for each runner`,
        );
      }
    }
  }
  return { script, profile, k6Args, help, live, runners };
}

/**
 * The values k6 will see from `--env NAME=VALUE` (or -e, --env=) among its arguments, last one
 * winning as in k6. The launcher validates the script's plan with these over the environment, so a
 * bad `--env RELEASE_VUS=abc` is exit 2 before k6 starts, as the same value in .env is (k6 itself
 * would throw in its init stage: exit 107, and no report of this run).
 */
export function envArgs(k6Args: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (let i = 0; i < k6Args.length; i++) {
    const arg = k6Args[i] as string;
    const pair =
      arg === '--env' || arg === '-e' ? k6Args[++i] : arg.startsWith('--env=') ? arg.slice(6) : undefined;
    const eq = pair?.indexOf('=') ?? -1;
    // `--env NAME` without a value passes NAME's own value from the environment: nothing new.
    if (pair !== undefined && eq > 0) values[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return values;
}
