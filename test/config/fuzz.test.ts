// Configuration fuzzing: random and malformed values for every variable (addresses without /api/,
// spaces, unicode, empty values, control characters, very long strings, non-numeric timeouts) and
// random other variables. loadSettings never throws; it gives either settings that are valid in
// every respect, or problems that each name a known variable in one printable line; and no
// configured secret ever appears in the message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ConfigProblem,
  formatProblems,
  MAX_TIMEOUT_MS,
  SECRET_VARIABLES,
  type TargetSettings,
} from '../../src/config/index.ts';
import { KNOWN_VARIABLES, type KnownVariable, load, STAGING } from './helpers.ts';

// CONFIG_FUZZ_RUNS=100000 for a deeper search than every test run makes.
const RUNS = Number(process.env.CONFIG_FUZZ_RUNS) || 1000;
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;
const HEADER_SAFE = /^[\x20-\x7e\x80-\xff]+$/;

const char = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCharCode(c));

/** Values that are wrong for most variables, in the ways people and tools get them wrong. */
const malformed: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\t', ' \n ', '""', "''", 'undefined', 'null', '#', '='),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({
    unit: fc.oneof(char(0, 0x1f), char(0x7f, 0x9f), fc.constantFrom('\u2028', '\u2029', ' ', 'a')),
  }),
  // Lone surrogate halves: what a broken encoding leaves behind.
  fc.string({ unit: char(0xd800, 0xdfff), minLength: 1, maxLength: 4 }),
  fc
    .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.string({ minLength: 1, maxLength: 3 }))
    .map(([n, s]) => s.repeat(n)),
  fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String),
  fc.constantFrom('1e3', '0x10', ' 12 ', '12ms', 'Infinity', '-0', '1_000', '１２', '٣', 'ten'),
);

/** Addresses near and far from what API_BASE_URL and PETSTORE_BASE_URL want. */
const urlish: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom(
        '',
        '/api/',
        '/api',
        '/v1',
        '/v1/',
        'api/',
        ' /api/',
        '/API/',
        '/api//',
        '/v1/pets',
        '/api/ ',
      ),
    )
    .map(([url, tail]) => url + tail),
  fc.webAuthority({ withUserInfo: true, withPort: true }).map((a) => `https://${a}/api/`),
  fc
    .tuple(fc.constantFrom('http', 'https', 'ftp', 'file', 'HTTP', 'javascript', ''), fc.domain())
    .map(([scheme, host]) => `${scheme}://${host}/api/`),
  fc
    .tuple(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('/api/', '/v1'))
    .map(([host, path]) => `https://${host}.example${path}`),
  fc.domain().map((host) => `${host}/api/`),
);

const VALID: Record<KnownVariable, fc.Arbitrary<string>> = {
  CONFORMANCE_TARGET: fc.mixedCase(fc.constantFrom('local', 'staging', 'production')),
  API_BASE_URL: fc.webAuthority({ withPort: true }).map((a) => `https://${a}/api/`),
  PETSTORE_BASE_URL: fc.webAuthority({ withPort: true }).map((a) => `http://${a}/v1`),
  CLIENT_ID: fc.string({ minLength: 1, maxLength: 30 }),
  CLIENT_SECRET: fc.string({ minLength: 8, maxLength: 60 }),
  API_KEY_ID: fc.string({ minLength: 1, maxLength: 30 }),
  API_KEY_SECRET: fc.string({ minLength: 8, maxLength: 60 }),
  PINNED_API_KEY_ID: fc.string({ minLength: 1, maxLength: 30 }),
  PINNED_API_KEY_SECRET: fc.string({ minLength: 8, maxLength: 60 }),
  CUSTOMERS_AUTH: fc.constantFrom('api-key', 'both'),
  PINNED_API_KEY_ADDRESS: fc.constantFrom('203.0.113.10', '198.51.100.23', '2001:db8::1'),
  DISABLED_FEATURE_ROUTE: fc.constantFrom('/v1/reports', '/v1/new-dashboard', '/v1/user/me'),
  EXPIRED_ACCESS_TOKEN: fc.string({ minLength: 8, maxLength: 200 }),
  ALLOW_PRODUCTION_WRITES: fc.constantFrom('yes', 'no', 'TRUE', 'off', '1', '0'),
  PRODUCTION_API_BASE_URL: fc.webUrl(),
  PRODUCTION_PETSTORE_BASE_URL: fc.webUrl(),
  REQUEST_TIMEOUT_MS: fc.integer({ min: 1, max: MAX_TIMEOUT_MS }).map(String),
  CONFORMANCE_STRICT: fc.constantFrom('0', '1', 'yes', 'no', 'true', 'Off'),
  CONFORMANCE_SLOW: fc.constantFrom('0', '1', 'yes', 'no', 'true', 'Off'),
  REFERENCE_CONTROL_URL: fc.webUrl(),
};

/** Each known variable: absent, valid, near-valid or malformed. */
const knownVariables = fc.record(
  Object.fromEntries(
    KNOWN_VARIABLES.map((name) => [
      name,
      fc.oneof(
        { weight: 3, arbitrary: VALID[name] },
        { weight: 1, arbitrary: VALID[name].map((v) => ` ${v}\t`) },
        { weight: 1, arbitrary: urlish },
        { weight: 2, arbitrary: malformed },
      ),
    ]),
  ) as Record<KnownVariable, fc.Arbitrary<string>>,
  { requiredKeys: [] },
);

/** Variables the configuration does not know, some of them close to the ones it does. */
const otherVariables = fc.dictionary(
  fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    fc.constantFrom(...KNOWN_VARIABLES).map((name) => name.toLowerCase()),
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'PATH', 'HOME'),
  ),
  fc.oneof(malformed, urlish),
  { maxKeys: 8 },
);

/** A complete valid configuration with a few variables changed or removed. */
const nearValid = fc
  .array(
    fc.tuple(fc.constantFrom(...KNOWN_VARIABLES), fc.option(fc.oneof(malformed, urlish), { nil: undefined })),
    {
      maxLength: 3,
    },
  )
  .map((changes) => {
    const env: Record<string, string | undefined> = { ...STAGING };
    for (const [name, value] of changes) env[name] = value;
    return env;
  });

const environments: fc.Arbitrary<Record<string, string | undefined>> = fc.oneof(
  fc.tuple(knownVariables, otherVariables).map(([known, other]) => ({ ...other, ...known })),
  fc.tuple(nearValid, otherVariables).map(([known, other]) => ({ ...other, ...known })),
);

/**
 * The configured secrets worth the name: a value of a few characters (`0`, `is`) is bound to occur
 * in the message's own words, so the leak properties look at secrets of 8 characters or more.
 */
function configuredSecrets(env: Record<string, string | undefined>): string[] {
  return SECRET_VARIABLES.map((name) => env[name]?.trim()).filter((v): v is string => !!v && v.length >= 8);
}

function expectValidUrl(value: string | undefined, ending: string): void {
  if (value === undefined) return;
  const url = new URL(value);
  expect(['http:', 'https:']).toContain(url.protocol);
  expect(url.pathname.endsWith(ending), `${value} ends with ${ending}`).toBe(true);
  expect(url.username + url.password + url.search + url.hash).toBe('');
}

/** Everything a valid TargetSettings promises, checked against the variables it came from. */
function expectValidSettings(s: TargetSettings, env: Record<string, string | undefined>): void {
  expect(['local', 'staging', 'production']).toContain(s.target);
  if (s.target !== 'local') {
    for (const key of [
      'apiBaseUrl',
      'petstoreBaseUrl',
      'clientId',
      'clientSecret',
      'apiKeyId',
      'apiKeySecret',
    ] as const) {
      expect(s[key], key).toBeDefined();
    }
  }
  expectValidUrl(s.apiBaseUrl, '/api/');
  expectValidUrl(s.petstoreBaseUrl, '/v1');
  if (s.controlUrl !== undefined) expectValidUrl(s.controlUrl, '');
  for (const key of [
    'clientId',
    'clientSecret',
    'apiKeyId',
    'apiKeySecret',
    'pinnedApiKeyId',
    'pinnedApiKeySecret',
    'expiredAccessToken',
  ] as const) {
    const value = s[key];
    if (value !== undefined) {
      expect(value, key).toMatch(HEADER_SAFE);
      expect(value, key).toBe(value.trim());
    }
  }
  expect(s.pinnedApiKeyId === undefined).toBe(s.pinnedApiKeySecret === undefined);
  if (s.disabledFeatureRoute !== undefined) expect(s.disabledFeatureRoute).toMatch(/^\/v1\/[^\s?#\p{Cc}]+$/u);
  expect(Number.isInteger(s.requestTimeoutMs)).toBe(true);
  expect(s.requestTimeoutMs).toBeGreaterThanOrEqual(1);
  expect(s.requestTimeoutMs).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
  // Only a switch's on words switch writes against production on.
  expect(s.allowProductionWrites).toBe(
    ['1', 'yes', 'true', 'on'].includes(env.ALLOW_PRODUCTION_WRITES?.trim().toLowerCase() ?? ''),
  );
  expect(typeof s.strict).toBe('boolean');
  expect(typeof s.slow).toBe('boolean');
  for (const [key, value] of Object.entries(s)) expect(value, key).not.toBeUndefined();
}

function expectClearProblems(problems: ConfigProblem[]): void {
  expect(problems.length).toBeGreaterThan(0);
  for (const p of problems) {
    expect(KNOWN_VARIABLES as readonly string[]).toContain(p.variable);
    expect(p.problem.length).toBeGreaterThan(0);
    expect(p.expected.length).toBeGreaterThan(0);
    expect(p.problem).not.toMatch(UNPRINTABLE);
    expect(p.problem.length).toBeLessThan(200);
  }
  expect(formatProblems(problems).split('\n')).toHaveLength(problems.length + 1);
}

/** Settings written back as variables: loading them again must give the same settings. */
function asVariables(s: TargetSettings): Record<string, string> {
  const env: Record<string, string> = {
    CONFORMANCE_TARGET: s.target,
    ALLOW_PRODUCTION_WRITES: s.allowProductionWrites ? 'yes' : 'no',
    REQUEST_TIMEOUT_MS: String(s.requestTimeoutMs),
    CONFORMANCE_STRICT: s.strict ? '1' : '0',
    CONFORMANCE_SLOW: s.slow ? '1' : '0',
  };
  const optional: [KnownVariable, string | undefined][] = [
    ['API_BASE_URL', s.apiBaseUrl],
    ['PETSTORE_BASE_URL', s.petstoreBaseUrl],
    ['CLIENT_ID', s.clientId],
    ['CLIENT_SECRET', s.clientSecret],
    ['API_KEY_ID', s.apiKeyId],
    ['API_KEY_SECRET', s.apiKeySecret],
    ['PINNED_API_KEY_ID', s.pinnedApiKeyId],
    ['PINNED_API_KEY_SECRET', s.pinnedApiKeySecret],
    ['DISABLED_FEATURE_ROUTE', s.disabledFeatureRoute],
    ['CUSTOMERS_AUTH', s.customersAuth],
    ['PINNED_API_KEY_ADDRESS', s.pinnedApiKeyAddress],
    ['EXPIRED_ACCESS_TOKEN', s.expiredAccessToken],
    ['REFERENCE_CONTROL_URL', s.controlUrl],
    ['PRODUCTION_API_BASE_URL', s.productionApiBaseUrl],
    ['PRODUCTION_PETSTORE_BASE_URL', s.productionPetstoreBaseUrl],
  ];
  for (const [name, value] of optional) if (value !== undefined) env[name] = value;
  return env;
}

// Generous: a thousand runs take about a second here, a slow CI machine may need more.
describe('configuration fuzzing', { timeout: 60_000 }, () => {
  it('never throws: valid settings, or clear problems naming known variables', () => {
    fc.assert(
      fc.property(environments, (env) => {
        const result = load(env);
        if (result.ok) expectValidSettings(result.settings, env);
        else expectClearProblems(result.problems);
      }),
      { numRuns: RUNS },
    );
  });

  it('finds both outcomes often enough to mean something', () => {
    const outcomes = fc.sample(environments, { numRuns: 500, seed: 42 }).map((env) => load(env).ok);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(5);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(5);
  });

  it('gives valid settings that load again to the same settings', () => {
    fc.assert(
      fc.property(environments, (env) => {
        const result = load(env);
        if (!result.ok) return;
        expect(load(asVariables(result.settings))).toEqual({ ok: true, settings: result.settings });
      }),
      { numRuns: RUNS },
    );
  });

  it('never shows a configured secret, wherever it was pasted: not whole, not cut short, not escaped', () => {
    // Each secret starts with a marker no other value has: any marker in the message is a leak,
    // be it the whole secret, the start of a long one cut short, or one escaped for quoting.
    const MARKER = 'sEcReT';
    const body = fc.string({
      unit: fc.oneof(
        char(0x20, 0x7e),
        char(0, 0x1f),
        char(0x7f, 0x9f),
        char(0xa0, 0x2fff),
        fc.constantFrom('"', '\\'),
      ),
      minLength: 2,
      maxLength: 150,
    });
    const pasted = fc.record({
      secrets: fc.array(fc.tuple(fc.constantFrom(...SECRET_VARIABLES), body), { minLength: 1, maxLength: 4 }),
      // Where else a secret went: whole, or inside a longer value.
      places: fc.array(
        fc.tuple(
          fc.constantFrom(...KNOWN_VARIABLES),
          fc.string({ maxLength: 10 }),
          fc.string({ maxLength: 10 }),
          fc.nat(3),
        ),
        { maxLength: 5 },
      ),
      base: knownVariables,
    });
    fc.assert(
      fc.property(pasted, ({ secrets, places, base }) => {
        const env: Record<string, string | undefined> = { ...base };
        const configured: string[] = [];
        for (const [i, [name, value]] of secrets.entries()) {
          env[name] = `${MARKER}${i}${value}`.trim();
          configured.push(env[name] ?? '');
        }
        for (const [name, before, after, which] of places) {
          if ((SECRET_VARIABLES as readonly string[]).includes(name)) continue;
          const secret = configured[which % configured.length] ?? '';
          // Only secrets still configured (a later one may have replaced an earlier one).
          if (Object.values(env).includes(secret)) env[name] = `${before}${secret}${after}`;
        }
        const result = load(env);
        if (result.ok) return;
        const shown = `${formatProblems(result.problems)}\n${JSON.stringify(result.problems)}`;
        expect(shown).not.toContain(MARKER);
      }),
      { numRuns: RUNS },
    );
  });

  it('never shows a secret of a realistic shape in a random configuration', () => {
    fc.assert(
      fc.property(environments, (env) => {
        const result = load(env);
        if (result.ok) return;
        const text = formatProblems(result.problems);
        for (const value of configuredSecrets(env).filter((v) => v.length >= 8))
          expect(text).not.toContain(value);
      }),
      { numRuns: RUNS },
    );
  });

  it('never shows the password of an address, however broken the address', () => {
    const PASSWORD = 'pAsSwOrD';
    const address = fc
      .tuple(
        fc.constantFrom('https://', 'http://', 'ftp://', '', 'https:/', 'HTTPS://'),
        fc.string({ maxLength: 6 }),
        fc.string({ unit: fc.oneof(char(0x21, 0x7e), fc.constantFrom(' ', '/', '@', ':')), maxLength: 6 }),
        fc.oneof(fc.domain(), fc.string({ maxLength: 12 })),
        fc.constantFrom('/api/', '/v1', '/', '', '/api/?q=1', ' /api/', '/__control/'),
      )
      .map(([scheme, user, extra, host, path]) => `${scheme}${user}:${PASSWORD}${extra}@${host}${path}`);
    fc.assert(
      fc.property(
        address,
        fc.constantFrom('API_BASE_URL', 'PETSTORE_BASE_URL', 'REFERENCE_CONTROL_URL'),
        (value, name) => {
          const result = load({ ...STAGING, [name]: value });
          if (result.ok) return;
          expect(formatProblems(result.problems)).not.toContain(PASSWORD);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('starts from a valid configuration that the fuzzing breaks', () => {
    // Anchors the properties above: the complete fixture is valid, one malformed value is not.
    expect(load(STAGING).ok).toBe(true);
    expect(load({ ...STAGING, REQUEST_TIMEOUT_MS: '\u0000' }).ok).toBe(false);
  });
});
