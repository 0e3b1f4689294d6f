// The environment k6 runs with: the validated target handed over once, as LOAD_TARGET (JSON of the
// table's k6 rows, common/hand-over.ts), which load/lib/config.ts reads instead of the
// individual variables. Secrets travel only here, never in k6's argv (argv shows in `ps`, the
// environment does not).
import { HAND_OVER_VARIABLE, writeHandOver } from '../../common/hand-over.ts';
import { variableNames } from '../../common/variables.ts';
import { isProduction, type TargetConfig, targetValues } from '../config/index.ts';

/** Variables describing a target (the table's k6 column): carried by the hand-over, so removed from k6's environment. */
export const TARGET_VARIABLES: readonly string[] = variableNames((v) => v.k6);

/** Set by the launcher only: the user's own values of these never reach k6 (nor through --env). */
export const RESERVED_VARIABLES: readonly string[] = [
  ...TARGET_VARIABLES,
  HAND_OVER_VARIABLE,
  'K6_REPORT_DIR',
];

export interface K6EnvOptions {
  /** The environment the CLI was started with (load variables such as RATE_BUDGET pass through). */
  base: NodeJS.ProcessEnv;
  reportDir: string;
  /** The run's profile (--profile, else LOAD_PROFILE): handed over with the target. */
  profile?: string | undefined;
  /** Whether the script may reach the pet demo (its address is withheld otherwise). */
  petstore: boolean;
  /** Whether the script gets the control API (only a reference server has one). */
  control: boolean;
  /** Defaults that the user's own variables override (none today: the local server tells the scripts nothing). */
  defaults?: Record<string, string>;
}

/** The hand-over's text: the k6 rows of the validated target, less what this script must not have. */
export function handOver(
  config: TargetConfig,
  options: Pick<K6EnvOptions, 'reportDir' | 'petstore' | 'control' | 'profile'>,
): string {
  const production = isProduction(config);
  const values = { ...targetValues(config), reportDir: options.reportDir, profile: options.profile };
  return writeHandOver({
    ...values,
    petstoreBaseUrl: options.petstore && !production ? config.petstoreBaseUrl : undefined,
    controlUrl: options.control && !production ? config.controlUrl : undefined,
  });
}

export function k6Environment(config: TargetConfig, options: K6EnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...options.defaults, ...options.base };
  // The user's own target variables (a leftover API_BASE_URL, a staging secret) stay out of k6.
  for (const name of RESERVED_VARIABLES) delete env[name];
  env[HAND_OVER_VARIABLE] = handOver(config, options);
  // k6 reports anonymous usage to Grafana by default; a test harness should not phone home unasked.
  env.K6_NO_USAGE_REPORT ??= 'true';
  return env;
}

/** Where handleSummary writes: K6_REPORT_DIR, else CONFORMANCE_REPORTS_DIR, else reports/. */
export function reportDirFrom(env: NodeJS.ProcessEnv): string {
  const chosen = env.K6_REPORT_DIR?.trim() || env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports';
  return chosen.replace(/\/+$/, '') || '/';
}
