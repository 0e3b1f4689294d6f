// The load scripts' configuration. Every script calls readLoadConfig in its init code, so a refused
// or broken configuration stops k6 before a single request. Two ways in, one LoadConfig out:
// - `npm run load:*` hands the configuration src/config/ validated over once, as LOAD_TARGET
//   (common/hand-over.ts); the individual variables are then not read at all;
// - `k6 run load/<script>.ts` directly (the direct-run path, docs/load.md): the table's k6
//   variables (common/variables.ts), read one by one with the checks below.
// Both go through loadConfigOf, which applies the production guard and the remote-target refusal
// again inside k6 (production is real money). The rules themselves (target names, addresses, the
// switch, the timeout, this machine) are common/config-rules.ts, which src/config applies
// too: this file only reads k6's environment through them. Pure: vitest tests it in Node.

import {
  demoSecretsForRemote,
  isLoopbackHost,
  MAX_TIMEOUT_MS,
  problemWords,
  type Rule,
  readAllowSwitch,
  readBaseUrl,
  readCredential,
  readHttpUrl,
  readTarget,
  readTimeout,
  TARGETS,
  type TargetName,
  urlHost,
} from '../../common/config-rules.ts';
import { type GuardedTarget, guard, isProduction } from '../../common/guard.ts';
import { HAND_OVER_VARIABLE, readHandOver } from '../../common/hand-over.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
import { secretValuesOf, variableNames } from '../../common/variables.ts';
import { type EnvMap, envString, envSwitch, LoadConfigError } from './env.ts';

export type { TargetName };

/** Field names are the table's keys (common/variables.ts), as in the hand-over. */
export interface LoadConfig {
  target: TargetName;
  /** Ends with /api/. */
  apiBaseUrl: string;
  /** Ends with /v1; undefined when not configured. */
  petstoreBaseUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  apiKeyId: string | undefined;
  apiKeySecret: string | undefined;
  allowProductionWrites: boolean;
  /** Production's declared addresses (PRODUCTION_*_BASE_URL): their hosts are production. */
  productionApiBaseUrl?: string | undefined;
  productionPetstoreBaseUrl?: string | undefined;
  /** REFERENCE_CONTROL_URL: the reference server's control API (local runs only). */
  controlUrl: string | undefined;
  /** Where handleSummary writes; k6 does not create it (the npm scripts do). */
  reportDir: string;
  requestTimeoutMs: number;
  /** LOAD_PROFILE (or --profile, handed over): undefined for each script's default. */
  profile: string | undefined;
}

/** What the refusals look at: the target, the switch, and where the load would go. */
export interface RefusalInput extends GuardedTarget {
  apiBaseUrl?: string | undefined;
}

/** Why load may not run against this target, or undefined when it may (the shared guard decides). */
export function productionRefusal(target: GuardedTarget): string | undefined {
  const verdict = guard(target, 'load');
  if (verdict.allowed) return undefined;
  const named = target.target === 'production' ? 'CONFORMANCE_TARGET=production' : 'its address';
  return `refusing to load production: ${named} is real money; ${verdict.reason}`;
}

/** A rule's value, or one line naming the variable (the value quoted only where it is harmless). */
function read<T>(name: string, value: string | undefined, rule: Rule<T>): T {
  if (rule.ok) return rule.value;
  const { problem } = rule;
  if (problem.kind === 'choice') {
    throw new LoadConfigError(`${name}="${value}" is not valid: expected ${problem.expected}`);
  }
  // An address is never echoed whole: it may carry credentials.
  throw new LoadConfigError(`${name} is not valid: it ${problemWords(problem)}`);
}

function baseUrl(env: EnvMap, name: string, ending: '/api/' | '/v1'): string | undefined {
  const value = envString(env, name);
  return value === undefined ? undefined : read(name, value, readBaseUrl(value, ending));
}

function httpUrl(env: EnvMap, name: string): string | undefined {
  const value = envString(env, name);
  return value === undefined ? undefined : read(name, value, readHttpUrl(value));
}

const SECRET_NAMES = variableNames((v) => v.secret);

/** A credential (a secret when the table's row says so); never quoted in a message. */
function credential(env: EnvMap, name: string): string | undefined {
  const value = envString(env, name);
  return value === undefined
    ? undefined
    : read(name, value, readCredential(value, SECRET_NAMES.includes(name)));
}

/**
 * Why a run with the local target may not go to apiBaseUrl: the local target is the reference
 * server on this machine, so a remote address there is a mistake (a leftover variable, a copied
 * command) that would load somebody's server by accident. targetNamed: CONFORMANCE_TARGET was
 * said (local) rather than left unset, for the message.
 */
export function remoteRefusal(input: RefusalInput, targetNamed = true): string | undefined {
  if (input.target !== 'local' || input.apiBaseUrl === undefined) return undefined;
  const host = urlHost(input.apiBaseUrl);
  if (host === undefined || isLoopbackHost(host)) return undefined;
  return `refusing to load ${host}: API_BASE_URL is not on this machine but CONFORMANCE_TARGET is ${targetNamed ? 'local' : 'not set'}; set CONFORMANCE_TARGET=staging (or production) to load a remote target on purpose`;
}

/** Why this script may not run at all, or undefined: production without the switch, or an unnamed remote. */
export function loadRefusal(input: RefusalInput, targetNamed = true): string | undefined {
  return productionRefusal(input) ?? remoteRefusal(input, targetNamed);
}

function refuse(input: RefusalInput, targetNamed = true): void {
  const refusal = loadRefusal(input, targetNamed);
  if (refusal) throw new LoadConfigError(refusal);
}

/**
 * The one place a LoadConfig is made, whichever way the configuration came: the refusals applied
 * (inside k6 too: defence in depth), no control API for production, the reports folder normalised.
 */
function loadConfigOf(config: LoadConfig, targetNamed = true): LoadConfig {
  refuse(config, targetNamed);
  return {
    ...config,
    controlUrl: isProduction(config) ? undefined : config.controlUrl,
    reportDir: trimTrailingSlashes(config.reportDir) || '/',
  };
}

export function readLoadConfig(env: EnvMap): LoadConfig {
  const handed = envString(env, HAND_OVER_VARIABLE);
  if (handed !== undefined) return loadConfigOf(fromHandOver(handed));
  return loadConfigOf(fromVariables(env), envString(env, 'CONFORMANCE_TARGET') !== undefined);
}

const HAND_OVER_HINT = `(it is written by npm run load:<name>; unset it to run with the individual variables)`;

/** The hand-over's fields, type-checked: their values were validated by src/config/ already. */
function fromHandOver(text: string): LoadConfig {
  const read = readHandOver(text);
  if (!read.ok)
    throw new LoadConfigError(`${HAND_OVER_VARIABLE} is not valid: ${read.problem} ${HAND_OVER_HINT}`);
  const fields = read.fields;
  const wrong = (key: string, expected: string): never => {
    throw new LoadConfigError(
      `${HAND_OVER_VARIABLE} is not valid: ${key} is not ${expected} ${HAND_OVER_HINT}`,
    );
  };
  const str = (key: string, required = false): string | undefined => {
    const value = fields[key];
    if (value === undefined && !required) return undefined;
    return typeof value === 'string' && value !== '' ? value : wrong(key, 'a non-empty string');
  };
  const target = TARGETS.find((t) => t === fields.target) ?? wrong('target', 'local, staging or production');
  const allow = fields.allowProductionWrites;
  const timeout = fields.requestTimeoutMs;
  // The same rules again (defence in depth): a hand-over the launcher could not have written is refused.
  const address = (key: string, rule: (value: string) => Rule<string>, required = false) => {
    const value = str(key, required);
    if (value === undefined) return undefined;
    const checked = rule(value);
    return checked.ok
      ? checked.value
      : wrong(key, `an address the configuration accepts (${problemWords(checked.problem)})`);
  };
  const timeoutRule = typeof timeout === 'number' ? readTimeout(String(timeout)) : undefined;
  return {
    target,
    apiBaseUrl: address('apiBaseUrl', (v) => readBaseUrl(v, '/api/'), true) as string,
    petstoreBaseUrl: address('petstoreBaseUrl', (v) => readBaseUrl(v, '/v1')),
    clientId: str('clientId'),
    clientSecret: str('clientSecret'),
    apiKeyId: str('apiKeyId'),
    apiKeySecret: str('apiKeySecret'),
    allowProductionWrites:
      typeof allow === 'boolean' ? allow : wrong('allowProductionWrites', 'true or false'),
    controlUrl: address('controlUrl', readHttpUrl),
    productionApiBaseUrl: address('productionApiBaseUrl', readHttpUrl),
    productionPetstoreBaseUrl: address('productionPetstoreBaseUrl', readHttpUrl),
    reportDir: str('reportDir', true) as string,
    profile: str('profile'),
    requestTimeoutMs: timeoutRule?.ok
      ? timeoutRule.value
      : wrong('requestTimeoutMs', `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`),
  };
}

function allowSwitch(env: EnvMap): boolean {
  const value = envString(env, 'ALLOW_PRODUCTION_WRITES');
  return read('ALLOW_PRODUCTION_WRITES', value, readAllowSwitch(value));
}

/** The direct-run path: the table's k6 variables (and K6_REPORT_DIR), one by one. */
function fromVariables(env: EnvMap): LoadConfig {
  const named = envString(env, 'CONFORMANCE_TARGET');
  const rawTarget = (named ?? 'local').toLowerCase();
  const allow = readAllowSwitch(envString(env, 'ALLOW_PRODUCTION_WRITES'));
  // Refused before anything else is read: production without its switch says so whatever else is wrong.
  refuse(
    {
      target: rawTarget,
      allowProductionWrites: allow.ok && allow.value,
      apiBaseUrl: envString(env, 'API_BASE_URL'),
      petstoreBaseUrl: envString(env, 'PETSTORE_BASE_URL'),
      productionApiBaseUrl: envString(env, 'PRODUCTION_API_BASE_URL'),
      productionPetstoreBaseUrl: envString(env, 'PRODUCTION_PETSTORE_BASE_URL'),
    },
    named !== undefined,
  );
  const allowProductionWrites = allowSwitch(env);
  const target = read('CONFORMANCE_TARGET', named, readTarget(named));
  const apiBaseUrl = baseUrl(env, 'API_BASE_URL', '/api/');
  if (!apiBaseUrl) {
    throw new LoadConfigError(
      target === 'local'
        ? 'API_BASE_URL is not set: run the script with npm run load:<name>, which starts the reference server for the local target, or set API_BASE_URL'
        : `API_BASE_URL is not set: the ${target} target needs its base address (ending with /api/)`,
    );
  }
  const petstoreBaseUrl = baseUrl(env, 'PETSTORE_BASE_URL', '/v1');
  const [demo] = demoSecretsForRemote(target, apiBaseUrl, (name) => envString(env, name));
  if (demo !== undefined) {
    throw new LoadConfigError(
      `${demo} is the embedded reference server's demo value, which no remote target accepts (the demo values are for CONFORMANCE_TARGET=local only)`,
    );
  }
  return {
    target,
    apiBaseUrl,
    // RELEASE_PETS off lists no pets: the address is left out, as the CLI leaves it out of the hand-over.
    petstoreBaseUrl: envSwitch(env, 'RELEASE_PETS', true) ? petstoreBaseUrl : undefined,
    clientId: credential(env, 'CLIENT_ID'),
    clientSecret: credential(env, 'CLIENT_SECRET'),
    apiKeyId: credential(env, 'API_KEY_ID'),
    apiKeySecret: credential(env, 'API_KEY_SECRET'),
    allowProductionWrites,
    controlUrl: httpUrl(env, 'REFERENCE_CONTROL_URL'),
    productionApiBaseUrl: httpUrl(env, 'PRODUCTION_API_BASE_URL'),
    productionPetstoreBaseUrl: httpUrl(env, 'PRODUCTION_PETSTORE_BASE_URL'),
    reportDir: envString(env, 'K6_REPORT_DIR') ?? 'reports',
    profile: envString(env, 'LOAD_PROFILE'),
    requestTimeoutMs: read(
      'REQUEST_TIMEOUT_MS',
      envString(env, 'REQUEST_TIMEOUT_MS'),
      readTimeout(envString(env, 'REQUEST_TIMEOUT_MS')),
    ),
  };
}

export type AuthScheme = 'apiKey' | 'bearer';

/** Fails with one line when the credentials of a scheme are missing. */
export function requireCredentials(config: LoadConfig, scheme: AuthScheme): void {
  const missing =
    scheme === 'apiKey'
      ? [!config.apiKeyId && 'API_KEY_ID', !config.apiKeySecret && 'API_KEY_SECRET']
      : [!config.clientId && 'CLIENT_ID', !config.clientSecret && 'CLIENT_SECRET'];
  const names = missing.filter((n): n is string => typeof n === 'string');
  if (names.length)
    throw new LoadConfigError(`${names.join(' and ')} not set: the ${scheme} scheme needs them`);
}

/** The values no report or log may show: the table's secret rows, as the suite filters them. */
export function secretValues(config: LoadConfig): string[] {
  return secretValuesOf(config);
}

/** Whether the pet demo may be exercised: staging and local only, never production. */
export function petstoreAllowed(config: LoadConfig): boolean {
  return guard(config, 'petstore').allowed && config.petstoreBaseUrl !== undefined;
}

/** `v1/customers` + query -> absolute URL under API_BASE_URL. */
export function apiUrl(config: LoadConfig, path: string, query?: Record<string, string | number>): string {
  return withQuery(`${config.apiBaseUrl}${path.replace(/^\/+/, '')}`, query);
}

export function petstoreUrl(
  config: LoadConfig,
  path: string,
  query?: Record<string, string | number>,
): string {
  if (!config.petstoreBaseUrl) throw new LoadConfigError('PETSTORE_BASE_URL is not set');
  return withQuery(`${config.petstoreBaseUrl}/${path.replace(/^\/+/, '')}`, query);
}

function withQuery(url: string, query?: Record<string, string | number>): string {
  if (!query) return url;
  const parts = Object.entries(query).map(
    ([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`,
  );
  return parts.length ? `${url}?${parts.join('&')}` : url;
}
