// The environment k6 runs with: the validated target handed over once, as LOAD_TARGET (JSON of the
// table's k6 rows, common/hand-over.ts), which load/lib/config.ts reads instead of the
// individual variables. Secrets travel only here, never in k6's argv (argv shows in `ps`, the
// environment does not).
import { HAND_OVER_VARIABLE, writeHandOver } from '../../common/hand-over.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
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

/**
 * k6's own variables a run may inherit: they change neither what is sent nor how it is judged.
 * Every other K6_* (K6_NO_THRESHOLDS, K6_HTTP_DEBUG, K6_OUT, K6_VUS, K6_INSECURE_SKIP_TLS_VERIFY,
 * ...) would change the verdict, the load or what k6 prints (traffic with its secrets), so the
 * launcher refuses to start with one set (refusedK6Variables) and never passes one on. The
 * dashboard's K6_WEB_DASHBOARD_* are the launcher's own (dashboard.ts), set after this.
 */
export const INHERITED_K6_VARIABLES: readonly string[] = [
  'K6_NO_USAGE_REPORT',
  'K6_NO_COLOR',
  // Ours, not k6's: where the project's own k6 build is (find-k6.ts).
  'K6_PROJECT_DIR',
];

/** K6_* variables set in this environment that would change a run; the launcher refuses them. */
export function refusedK6Variables(base: NodeJS.ProcessEnv): string[] {
  return Object.keys(base)
    .filter((name) => name.toUpperCase().startsWith('K6_') && base[name] !== undefined)
    .filter((name) => !INHERITED_K6_VARIABLES.includes(name) && !RESERVED_VARIABLES.includes(name))
    .sort();
}

export function k6Environment(config: TargetConfig, options: K6EnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...options.defaults, ...options.base };
  // The user's own target variables (a leftover API_BASE_URL, a staging secret) stay out of k6.
  for (const name of RESERVED_VARIABLES) delete env[name];
  // k6 reads only the K6_* variables we chose (defence in depth: the CLI refuses the others first).
  for (const name of refusedK6Variables(env)) delete env[name];
  env[HAND_OVER_VARIABLE] = handOver(config, options);
  // k6 reports anonymous usage to Grafana by default; a test harness should not phone home unasked.
  env.K6_NO_USAGE_REPORT ??= 'true';
  return env;
}

/** Where handleSummary writes: K6_REPORT_DIR, else CONFORMANCE_REPORTS_DIR, else reports/. */
export function reportDirFrom(env: NodeJS.ProcessEnv): string {
  const chosen = env.K6_REPORT_DIR?.trim() || env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports';
  return trimTrailingSlashes(chosen) || '/';
}
