// Shared fixtures of the configuration tests: a complete remote configuration with recognisable
// secrets (so a leak is easy to find), every variable the configuration knows, and a loader that
// never reads the repository's .env.
import { type LoadResult, loadSettings } from '../../src/config/index.ts';

/** Every variable the configuration reads: a problem naming anything else is a defect. */
export const KNOWN_VARIABLES = [
  'CONFORMANCE_TARGET',
  'API_BASE_URL',
  'PETSTORE_BASE_URL',
  'CLIENT_ID',
  'CLIENT_SECRET',
  'API_KEY_ID',
  'API_KEY_SECRET',
  'PINNED_API_KEY_ID',
  'PINNED_API_KEY_SECRET',
  'CUSTOMERS_AUTH',
  'PINNED_API_KEY_ADDRESS',
  'DISABLED_FEATURE_ROUTE',
  'EXPIRED_ACCESS_TOKEN',
  'ALLOW_PRODUCTION_WRITES',
  'PRODUCTION_API_BASE_URL',
  'PRODUCTION_PETSTORE_BASE_URL',
  'REQUEST_TIMEOUT_MS',
  'CONFORMANCE_STRICT',
  'CONFORMANCE_SLOW',
  'REFERENCE_CONTROL_URL',
] as const;

export type KnownVariable = (typeof KNOWN_VARIABLES)[number];

export const SECRETS = {
  CLIENT_SECRET: 'cfg-client-secret-4d1f9a7e',
  API_KEY_SECRET: 'cfg-api-key-secret-8b2c6e0d',
  PINNED_API_KEY_SECRET: 'cfg-pinned-secret-3a7f5c91',
  EXPIRED_ACCESS_TOKEN: 'cfg-expired-token-e6b04d2a',
} as const;

/** A complete, valid staging configuration. */
export const STAGING: Record<KnownVariable, string> = {
  CONFORMANCE_TARGET: 'staging',
  API_BASE_URL: 'https://staging.example.com/api/',
  PETSTORE_BASE_URL: 'https://petstore.staging.example.com/v1',
  CLIENT_ID: 'cfg-client',
  CLIENT_SECRET: SECRETS.CLIENT_SECRET,
  API_KEY_ID: 'cfg-key',
  API_KEY_SECRET: SECRETS.API_KEY_SECRET,
  PINNED_API_KEY_ID: 'cfg-pinned-key',
  PINNED_API_KEY_SECRET: SECRETS.PINNED_API_KEY_SECRET,
  // Unset (detected): the settings the tests expect leave it out.
  CUSTOMERS_AUTH: '',
  // Unset: the settings the tests expect leave it out.
  PINNED_API_KEY_ADDRESS: '',
  DISABLED_FEATURE_ROUTE: '/v1/reports',
  EXPIRED_ACCESS_TOKEN: SECRETS.EXPIRED_ACCESS_TOKEN,
  ALLOW_PRODUCTION_WRITES: 'no',
  PRODUCTION_API_BASE_URL: 'https://api.example.com/api/',
  PRODUCTION_PETSTORE_BASE_URL: 'https://petstore.example.com/v1',
  REQUEST_TIMEOUT_MS: '5000',
  CONFORMANCE_STRICT: '0',
  CONFORMANCE_SLOW: '1',
  REFERENCE_CONTROL_URL: 'http://127.0.0.1:8080/__control/',
};

/** loadSettings on exactly these variables: no .env file, nothing from the real environment. */
export function load(env: Record<string, string | undefined>): LoadResult {
  return loadSettings(env, { envFile: false });
}

/** The settings of a load that must succeed; fails the test with the problems otherwise. */
export function settingsOf(env: Record<string, string | undefined>) {
  const result = load(env);
  if (!result.ok) throw new Error(`expected a valid configuration, got ${JSON.stringify(result.problems)}`);
  return result.settings;
}

/** The problems of a load that must fail; fails the test otherwise. */
export function problemsOf(env: Record<string, string | undefined>) {
  const result = load(env);
  if (result.ok) throw new Error(`expected configuration problems, got ${JSON.stringify(result.settings)}`);
  return result.problems;
}

/** The variables the problems name, in order. */
export function variablesOf(env: Record<string, string | undefined>): string[] {
  return problemsOf(env).map((p) => p.variable);
}
