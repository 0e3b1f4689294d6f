// The load scripts' configuration, from the variable names of .env.example (k6 passes the
// environment in __ENV). Pure: vitest tests it in Node. Every script calls readLoadConfig in its
// init code, so a refused or broken configuration stops k6 before a single request.
import { type EnvMap, envNumber, envString, LoadConfigError } from './env.ts';
import { guard } from './shared/guard.ts';

export type TargetName = 'local' | 'staging' | 'production';
const TARGETS: readonly TargetName[] = ['local', 'staging', 'production'];

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
  /** REFERENCE_CONTROL_URL: the reference server's control API (local runs only). */
  controlUrl: string | undefined;
  /** Where handleSummary writes; k6 does not create it (the npm scripts do). */
  reportDir: string;
  requestTimeoutMs: number;
}

/** Why load may not run against this target, or undefined when it may (the shared guard decides). */
export function productionRefusal(env: EnvMap): string | undefined {
  const target = (envString(env, 'CONFORMANCE_TARGET') ?? 'local').toLowerCase();
  const verdict = guard(
    { target, allowProductionWrites: envString(env, 'ALLOW_PRODUCTION_WRITES') === 'yes' },
    'load',
  );
  if (verdict.allowed) return undefined;
  return `refusing to load production: CONFORMANCE_TARGET=production is real money; ${verdict.reason}`;
}

function baseUrl(env: EnvMap, name: string, suffix: string): string | undefined {
  const value = envString(env, name);
  if (value === undefined) return undefined;
  // Never echo the value whole: a URL may carry credentials.
  if (!/^https?:\/\/[^\s/]+/i.test(value) || !value.endsWith(suffix)) {
    throw new LoadConfigError(`${name} is not valid: expected an http(s) URL ending with ${suffix}`);
  }
  if (/^https?:\/\/[^/]*@/i.test(value)) {
    throw new LoadConfigError(
      `${name} is not valid: credentials belong in their own variables, not in the URL`,
    );
  }
  return value;
}

/** The host of an http(s) URL (brackets kept for IPv6), lower-cased; k6 has no URL parser to lean on. */
export function urlHost(url: string): string | undefined {
  const match = /^https?:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)/i.exec(url.trim());
  return match?.[1] ? match[1].toLowerCase() : undefined;
}

/** 127.0.0.0/8, ::1 and localhost (RFC 6761 keeps *.localhost on the machine too). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '[0:0:0:0:0:0:0:1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why a run with the local target (CONFORMANCE_TARGET unset or local) may not go to API_BASE_URL:
 * the local target is the reference server on this machine, so a remote address there is a
 * mistake (a leftover variable, a copied command) that would load somebody's server by accident.
 */
export function remoteRefusal(env: EnvMap): string | undefined {
  const target = (envString(env, 'CONFORMANCE_TARGET') ?? 'local').toLowerCase();
  const url = envString(env, 'API_BASE_URL');
  if (target !== 'local' || url === undefined) return undefined;
  const host = urlHost(url);
  if (host === undefined || isLoopbackHost(host)) return undefined;
  return `refusing to load ${host}: API_BASE_URL is not on this machine but CONFORMANCE_TARGET is ${envString(env, 'CONFORMANCE_TARGET') === undefined ? 'not set' : 'local'}; set CONFORMANCE_TARGET=staging (or production) to load a remote target on purpose`;
}

/** Why this script may not run at all, or undefined: production without the switch, or an unnamed remote. */
export function loadRefusal(env: EnvMap): string | undefined {
  return productionRefusal(env) ?? remoteRefusal(env);
}

function allowSwitch(env: EnvMap): boolean {
  const value = envString(env, 'ALLOW_PRODUCTION_WRITES');
  if (value === undefined || value === 'no') return false;
  if (value === 'yes') return true;
  // src/config refuses other values too: `true` meant something, and guessing is worse than asking.
  throw new LoadConfigError(`ALLOW_PRODUCTION_WRITES="${value}" is not valid: expected yes or no`);
}

export function readLoadConfig(env: EnvMap): LoadConfig {
  const refusal = loadRefusal(env);
  if (refusal) throw new LoadConfigError(refusal);
  const allowProductionWrites = allowSwitch(env);
  const rawTarget = (envString(env, 'CONFORMANCE_TARGET') ?? 'local').toLowerCase();
  const target = TARGETS.find((t) => t === rawTarget);
  if (!target) {
    throw new LoadConfigError(
      `CONFORMANCE_TARGET="${rawTarget}" is not valid: expected local, staging or production`,
    );
  }
  const apiBaseUrl = baseUrl(env, 'API_BASE_URL', '/api/');
  if (!apiBaseUrl) {
    throw new LoadConfigError(
      target === 'local'
        ? 'API_BASE_URL is not set: run the script with npm run load:<name>, which starts the reference server for the local target, or set API_BASE_URL'
        : `API_BASE_URL is not set: the ${target} target needs its base address (ending with /api/)`,
    );
  }
  return {
    target,
    apiBaseUrl,
    petstoreBaseUrl: baseUrl(env, 'PETSTORE_BASE_URL', '/v1'),
    clientId: envString(env, 'CLIENT_ID'),
    clientSecret: envString(env, 'CLIENT_SECRET'),
    apiKeyId: envString(env, 'API_KEY_ID'),
    apiKeySecret: envString(env, 'API_KEY_SECRET'),
    allowProductionWrites,
    controlUrl: target === 'production' ? undefined : envString(env, 'REFERENCE_CONTROL_URL'),
    reportDir: (envString(env, 'K6_REPORT_DIR') ?? 'reports').replace(/\/+$/, ''),
    requestTimeoutMs: envNumber(env, 'REQUEST_TIMEOUT_MS', 10_000, { min: 1, max: 600_000, integer: true }),
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

/** The values no report or log may show. */
export function secretValues(config: LoadConfig): string[] {
  return [config.clientSecret, config.apiKeySecret].filter(
    (s): s is string => typeof s === 'string' && s !== '',
  );
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
