// Turns raw variables into TargetSettings, collecting every problem instead of stopping at the
// first, so one run tells the user everything to fix. Secret values are never quoted.
import { isIP } from 'node:net';
import {
  DEFAULT_TIMEOUT_MS,
  demoSecretsForRemote,
  MAX_TIMEOUT_MS,
  MIN_SECRET_LENGTH,
  type Problem,
  problemWords,
  type Rule,
  readAllowSwitch,
  readBaseUrl,
  readCredential,
  readHttpUrl,
  readSwitch,
  readTarget,
  readTimeout,
} from '../../common/config-rules.ts';
import { createSecretFilter, type SecretFilter } from '../../common/secret-filter.ts';
import { variableNames } from '../../common/variables.ts';
import type { RawVariables } from './env-file.ts';
import type { ConfigProblem, CustomersAuth, TargetName, TargetSettings } from './types.ts';

/** The variables whose values are never quoted: the secret column of the one table of variables. */
export const SECRET_VARIABLES: readonly string[] = variableNames((v) => v.secret);

// The rules both halves apply live in common/config-rules.ts; this file words and collects.
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_SECRET_LENGTH };

/** Control characters and line separators: a quoted value must not break its line or the terminal. */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]+/gu;

/** A URL-like value with whatever precedes its last `@` hidden: the user part may be a password. */
function hideUserInfo(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  return `${scheme}***${value.slice(at)}`;
}

class Collector {
  readonly problems: ConfigProblem[] = [];
  private readonly raw: RawVariables;
  /** A secret pasted into the wrong variable is still a secret: every value passes through this. */
  private readonly secrets: SecretFilter;
  constructor(raw: RawVariables) {
    this.raw = raw;
    this.secrets = createSecretFilter(
      SECRET_VARIABLES.map((v) => this.get(v)).filter((v): v is string => v !== undefined),
    );
  }

  /** Trimmed value; empty means unset. */
  get(name: string): string | undefined {
    const value = this.raw[name]?.trim();
    return value ? value : undefined;
  }

  add(variable: string, problem: string, expected: string): void {
    this.problems.push({ variable, problem, expected });
  }

  /** A piece of a value, for a message: secrets removed. Messages take values only through this or quote(). */
  clean(value: string): string {
    return this.secrets.text(value);
  }

  /**
   * Quotes a value for a message: secrets removed before anything else (cutting or escaping could
   * otherwise leave part of one), on one printable line, cut short.
   */
  quote(value: string): string {
    const oneLine = this.clean(value).replace(UNPRINTABLE, ' ');
    const chars = Array.from(oneLine);
    return JSON.stringify(chars.length > 80 ? `${chars.slice(0, 77).join('')}...` : oneLine);
  }
}

/** A rule's value, or its fallback with the problem collected (the value quoted safely). */
function chosen<T>(c: Collector, name: string, rule: Rule<T>, fallback: T): T {
  if (rule.ok) return rule.value;
  const value = c.get(name) ?? '';
  const expected = rule.problem.kind === 'choice' ? rule.problem.expected : '';
  c.add(name, `is ${c.quote(value)}`, expected);
  return fallback;
}

function target(c: Collector): TargetName {
  return chosen(c, 'CONFORMANCE_TARGET', readTarget(c.get('CONFORMANCE_TARGET')), 'local');
}

/** An address problem in words: the value quoted (user info hidden) where the problem names it. */
function addressProblem(c: Collector, value: string, problem: Problem): string {
  const words = problemWords(problem);
  if (problem.kind === 'credentials') return words; // never quoted: the user part may be a password
  // A scheme-looking prefix of `user:password@host` is no scheme: say so without naming it.
  if (problem.kind === 'scheme' && value.includes('@')) {
    return `${c.quote(hideUserInfo(value))} uses a non-http(s) scheme`;
  }
  // Only the address is quoted when there is a query: a query often carries a token.
  const shown = problem.kind === 'query' ? (hideUserInfo(value).split(/[?#]/)[0] ?? '') : hideUserInfo(value);
  return `${c.quote(shown)} ${problem.kind === 'scheme' ? `uses the ${c.clean(problem.scheme)} scheme` : words}`;
}

/** A base address (common/config-rules.ts readBaseUrl), every problem collected. */
function baseUrl(
  c: Collector,
  name: string,
  ending: '/api/' | '/v1',
  required: boolean,
  why: string,
): string | undefined {
  const value = c.get(name);
  const expected =
    ending === '/api/'
      ? 'an absolute http(s) URL ending with /api/, e.g. https://staging.example.com/api/'
      : 'an absolute http(s) URL ending with /v1, e.g. https://petstore.staging.example.com/v1';
  if (value === undefined) {
    if (required) c.add(name, `is not set (${why})`, expected);
    return undefined;
  }
  return address(c, name, value, readBaseUrl(value, ending), expected);
}

function address(c: Collector, name: string, value: string, rule: Rule<string>, expected: string) {
  if (rule.ok) return rule.value;
  const more =
    rule.problem.kind === 'credentials' ? ', without credentials (use the credential variables)' : '';
  c.add(name, addressProblem(c, value, rule.problem), `${expected}${more}`);
  return undefined;
}

function credential(c: Collector, name: string, what: string, required: boolean, why: string) {
  const value = c.get(name);
  if (value === undefined) {
    if (required) c.add(name, `is not set (${why})`, what);
    return undefined;
  }
  const read = readCredential(value, (SECRET_VARIABLES as readonly string[]).includes(name));
  if (read.ok) return read.value;
  c.add(
    name,
    problemWords(read.problem),
    read.problem.kind === 'short'
      ? 'the real secret (a value this short could not be kept out of the reports)'
      : 'a value that can travel in an HTTP header or JSON body',
  );
  return undefined;
}

/** An on/off variable: the same words for every switch (common/config-rules.ts readSwitch). */
function flag(c: Collector, name: string, fallback: boolean): boolean {
  return chosen(c, name, readSwitch(c.get(name), fallback), fallback);
}

function allowProductionWrites(c: Collector): boolean {
  return chosen(c, 'ALLOW_PRODUCTION_WRITES', readAllowSwitch(c.get('ALLOW_PRODUCTION_WRITES')), false);
}

function timeout(c: Collector): number {
  return chosen(c, 'REQUEST_TIMEOUT_MS', readTimeout(c.get('REQUEST_TIMEOUT_MS')), DEFAULT_TIMEOUT_MS);
}

function customersAuth(c: Collector): CustomersAuth | undefined {
  const value = c.get('CUSTOMERS_AUTH');
  if (value === undefined) return undefined;
  if (value === 'api-key' || value === 'both') return value;
  c.add(
    'CUSTOMERS_AUTH',
    `is ${c.quote(value)}`,
    'api-key or both (the API key is always required on GET /v1/customers: its shown permission)',
  );
  return undefined;
}

function featureRoute(c: Collector): string | undefined {
  const value = c.get('DISABLED_FEATURE_ROUTE');
  if (value === undefined) return undefined;
  if (/^\/v1\/[^\s?#\p{Cc}]+$/u.test(value)) return value;
  c.add(
    'DISABLED_FEATURE_ROUTE',
    `${c.quote(value)} is not a main-service route`,
    'a GET route of the main service starting with /v1/, e.g. /v1/reports',
  );
  return undefined;
}

// For tests against a reference server started with a short --flag-window: the spec's window is 60 s.
function flagWindow(c: Collector): number | undefined {
  const value = c.get('CONFORMANCE_FLAG_WINDOW');
  if (value === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (n >= 0.1 && n <= 300) return n;
  c.add(
    'CONFORMANCE_FLAG_WINDOW',
    `is ${c.quote(value)}`,
    "seconds from 0.1 to 300 (unset: the spec's 60 s; only for a reference server started with --flag-window)",
  );
  return undefined;
}

/** A production address: any http(s) URL; only its host is compared. */
function productionAddress(c: Collector, name: string): string | undefined {
  const value = c.get(name);
  if (value === undefined) return undefined;
  return address(c, name, value, readHttpUrl(value), "production's base address, an absolute http(s) URL");
}

function controlUrl(c: Collector): string | undefined {
  const value = c.get('REFERENCE_CONTROL_URL');
  if (value === undefined) return undefined;
  const expected = 'an absolute http(s) URL, e.g. http://127.0.0.1:8080/__control/';
  return address(c, 'REFERENCE_CONTROL_URL', value, readHttpUrl(value), expected);
}

function pinnedAddress(c: Collector): string | undefined {
  const value = c.get('PINNED_API_KEY_ADDRESS');
  if (value === undefined) return undefined;
  if (isIP(value) !== 0) return value;
  c.add('PINNED_API_KEY_ADDRESS', `is ${c.quote(value)}`, 'an IPv4 or IPv6 address, e.g. 203.0.113.10');
  return undefined;
}

export function validate(
  raw: RawVariables,
  earlier: ConfigProblem[] = [],
): { ok: true; settings: TargetSettings } | { ok: false; problems: ConfigProblem[] } {
  const c = new Collector(raw);
  c.problems.push(...earlier);
  const name = target(c);
  const remote = name !== 'local';
  const why = `required for the ${name} target`;

  const settings: TargetSettings = {
    target: name,
    apiBaseUrl: baseUrl(c, 'API_BASE_URL', '/api/', remote, why),
    petstoreBaseUrl: baseUrl(c, 'PETSTORE_BASE_URL', '/v1', remote, why),
    clientId: credential(c, 'CLIENT_ID', 'the client id for POST /v1/auth/token', remote, why),
    clientSecret: credential(c, 'CLIENT_SECRET', 'the client secret for POST /v1/auth/token', remote, why),
    apiKeyId: credential(c, 'API_KEY_ID', 'the id of an API key (x-api-key-id)', remote, why),
    apiKeySecret: credential(
      c,
      'API_KEY_SECRET',
      'the secret of that API key (x-api-key-secret)',
      remote,
      why,
    ),
    pinnedApiKeyId: credential(c, 'PINNED_API_KEY_ID', 'the id of a key pinned to another IP', false, why),
    pinnedApiKeySecret: credential(c, 'PINNED_API_KEY_SECRET', 'the secret of that pinned key', false, why),
    pinnedApiKeyAddress: pinnedAddress(c),
    disabledFeatureRoute: featureRoute(c),
    customersAuth: customersAuth(c),
    expiredAccessToken: credential(
      c,
      'EXPIRED_ACCESS_TOKEN',
      'an access token known to have expired',
      false,
      why,
    ),
    allowProductionWrites: allowProductionWrites(c),
    productionApiBaseUrl: productionAddress(c, 'PRODUCTION_API_BASE_URL'),
    productionPetstoreBaseUrl: productionAddress(c, 'PRODUCTION_PETSTORE_BASE_URL'),
    requestTimeoutMs: timeout(c),
    strict: flag(c, 'CONFORMANCE_STRICT', false),
    slow: flag(c, 'CONFORMANCE_SLOW', true),
    controlUrl: controlUrl(c),
    flagWindowSeconds: flagWindow(c),
  };

  const pinnedId = c.get('PINNED_API_KEY_ID');
  const pinnedSecret = c.get('PINNED_API_KEY_SECRET');
  if ((pinnedId === undefined) !== (pinnedSecret === undefined)) {
    const missing = pinnedId === undefined ? 'PINNED_API_KEY_ID' : 'PINNED_API_KEY_SECRET';
    const other = pinnedId === undefined ? 'PINNED_API_KEY_SECRET' : 'PINNED_API_KEY_ID';
    c.add(
      missing,
      `is not set while ${other} is`,
      'both PINNED_API_KEY_ID and PINNED_API_KEY_SECRET, or neither',
    );
  }

  for (const variable of demoSecretsForRemote(name, settings.apiBaseUrl, (v) => c.get(v))) {
    c.add(
      variable,
      "is the embedded reference server's demo value, which no remote target accepts",
      `the ${name} credentials (the demo values are for CONFORMANCE_TARGET=local only)`,
    );
  }

  // Values were filtered as they entered the messages (quote, clean); the messages' own words are
  // never filtered, so a secret that is also a word ("short", "characters") cannot rewrite them.
  if (c.problems.length > 0) return { ok: false, problems: c.problems };
  // Unset optional values are left out rather than carried as undefined.
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  return { ok: true, settings: defined as unknown as TargetSettings };
}
