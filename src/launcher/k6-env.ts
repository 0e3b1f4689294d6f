// The environment k6 runs with: the resolved target as the variables load/lib/config.ts reads.
// Secrets travel only here, never in k6's argv (argv shows in `ps`, the environment does not).
import { variableNames } from '../../load/lib/shared/variables.ts';
import type { TargetConfig } from '../config/index.ts';

/** Variables describing a target (the table's k6 column): set from the resolved config, or removed so none leaks through. */
export const TARGET_VARIABLES: readonly string[] = variableNames((v) => v.k6);

export interface K6EnvOptions {
  /** The environment the CLI was started with (load variables such as RATE_BUDGET pass through). */
  base: NodeJS.ProcessEnv;
  reportDir: string;
  /** LOAD_PROFILE (the --profile option wins over the environment). */
  profile?: string | undefined;
  /** Whether the script may reach the pet demo (PETSTORE_BASE_URL is withheld otherwise). */
  petstore: boolean;
  /** Whether the script gets the control API (only a reference server has one). */
  control: boolean;
  /** Defaults that the user's own variables override (none today: the local server tells the scripts nothing). */
  defaults?: Record<string, string>;
}

export function k6Environment(config: TargetConfig, options: K6EnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...options.defaults, ...options.base };
  for (const name of TARGET_VARIABLES) delete env[name];
  Object.assign(env, {
    CONFORMANCE_TARGET: config.target,
    API_BASE_URL: config.apiBaseUrl,
    CLIENT_ID: config.credentials.clientId,
    CLIENT_SECRET: config.credentials.clientSecret,
    API_KEY_ID: config.credentials.apiKeyId,
    API_KEY_SECRET: config.credentials.apiKeySecret,
    ALLOW_PRODUCTION_WRITES: config.allowProductionWrites ? 'yes' : 'no',
    REQUEST_TIMEOUT_MS: String(config.requestTimeoutMs),
    K6_REPORT_DIR: options.reportDir,
  });
  if (options.petstore && config.target !== 'production') env.PETSTORE_BASE_URL = config.petstoreBaseUrl;
  if (options.control && config.controlUrl && config.target !== 'production') {
    env.REFERENCE_CONTROL_URL = config.controlUrl;
  }
  if (options.profile !== undefined) env.LOAD_PROFILE = options.profile;
  // k6 reports anonymous usage to Grafana by default; a test harness should not phone home unasked.
  env.K6_NO_USAGE_REPORT ??= 'true';
  return env;
}

/** Where handleSummary writes: K6_REPORT_DIR, else CONFORMANCE_REPORTS_DIR, else reports/. */
export function reportDirFrom(env: NodeJS.ProcessEnv): string {
  const chosen = env.K6_REPORT_DIR?.trim() || env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports';
  return chosen.replace(/\/+$/, '') || '/';
}
