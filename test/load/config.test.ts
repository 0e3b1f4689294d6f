// The load scripts' configuration: same variable names as .env.example, the production refusal
// (the same rule as src/config/guard.ts), one-line errors that never echo a URL's credentials.
import { describe, expect, it } from 'vitest';
import {
  apiUrl,
  petstoreAllowed,
  petstoreUrl,
  productionRefusal,
  readLoadConfig,
  requireCredentials,
  secretValues,
} from '../../load/lib/config.ts';
import { envDuration, envNumber, LoadConfigError, parseDurationSeconds } from '../../load/lib/env.ts';
import { inInit } from '../../load/lib/init.ts';
import { guard } from '../../src/config/index.ts';

const STAGING = {
  CONFORMANCE_TARGET: 'staging',
  API_BASE_URL: 'https://staging.example.test/api/',
  PETSTORE_BASE_URL: 'https://pets.staging.example.test/v1',
  CLIENT_ID: 'client',
  CLIENT_SECRET: 'client-secret-value',
  API_KEY_ID: 'key',
  API_KEY_SECRET: 'api-key-secret-value',
};

describe('the production refusal', () => {
  it.each([
    [undefined, true],
    ['no', true],
    ['YES', true],
    ['true', true],
    ['yes', false],
  ])('ALLOW_PRODUCTION_WRITES=%s refuses: %s', (allow, refused) => {
    const env = { ...STAGING, CONFORMANCE_TARGET: 'production', ALLOW_PRODUCTION_WRITES: allow };
    if (refused) {
      expect(() => readLoadConfig(env)).toThrow(LoadConfigError);
      expect(() => readLoadConfig(env)).toThrow(/refusing to load production.*ALLOW_PRODUCTION_WRITES=yes/);
    } else {
      expect(readLoadConfig(env).target).toBe('production');
    }
    // The scripts and the npm scripts agree with the one guard of src/config.
    const verdict = guard({ target: 'production', allowProductionWrites: allow === 'yes' }, 'load');
    expect(verdict.allowed).toBe(!refused);
  });

  it('refuses before looking at anything else, in one line', () => {
    const reason = productionRefusal({ CONFORMANCE_TARGET: 'Production' });
    expect(reason).toMatch(/production/);
    expect(reason).not.toMatch(/\n/);
    expect(() => readLoadConfig({ CONFORMANCE_TARGET: 'production', API_BASE_URL: 'nonsense' })).toThrow(
      /refusing to load production/,
    );
  });

  it('lets staging and local run without the switch', () => {
    expect(productionRefusal({ CONFORMANCE_TARGET: 'staging' })).toBeUndefined();
    expect(productionRefusal({})).toBeUndefined();
  });

  it('turns into a thrown string in init code, which k6 prints without a stack', () => {
    let thrown: unknown;
    try {
      inInit(() => readLoadConfig({ CONFORMANCE_TARGET: 'production' }));
    } catch (error) {
      thrown = error;
    }
    expect(typeof thrown).toBe('string');
    expect(thrown).toMatch(/^refusing to load production/);
  });
});

describe('readLoadConfig', () => {
  it('reads the variables of .env.example', () => {
    const config = readLoadConfig({ ...STAGING, REQUEST_TIMEOUT_MS: '2500', K6_REPORT_DIR: '/tmp/out/' });
    expect(config).toMatchObject({
      target: 'staging',
      apiBaseUrl: STAGING.API_BASE_URL,
      petstoreBaseUrl: STAGING.PETSTORE_BASE_URL,
      clientId: 'client',
      apiKeyId: 'key',
      allowProductionWrites: false,
      requestTimeoutMs: 2500,
      reportDir: '/tmp/out',
    });
    expect(readLoadConfig(STAGING).reportDir).toBe('reports');
  });

  it('explains a missing API_BASE_URL for local and remote targets', () => {
    expect(() => readLoadConfig({})).toThrow(/npm run load:<name>.*starts the reference server/);
    expect(() => readLoadConfig({ CONFORMANCE_TARGET: 'staging' })).toThrow(/staging target needs/);
  });

  it('refuses bad addresses without echoing them', () => {
    const leaky = 'https://user:hunter2@staging.example.test/api/';
    for (const env of [
      { ...STAGING, API_BASE_URL: 'https://staging.example.test/' },
      { ...STAGING, API_BASE_URL: 'ftp://staging.example.test/api/' },
      { ...STAGING, API_BASE_URL: leaky },
      { ...STAGING, PETSTORE_BASE_URL: 'https://pets.example.test/v2' },
    ]) {
      expect(() => readLoadConfig(env)).toThrow(LoadConfigError);
      try {
        readLoadConfig(env);
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2');
        expect((error as Error).message).not.toMatch(/\n/);
      }
    }
  });

  it('refuses an unknown target', () => {
    expect(() => readLoadConfig({ ...STAGING, CONFORMANCE_TARGET: 'qa' })).toThrow(
      /local, staging or production/,
    );
  });

  it('ignores a control URL for production', () => {
    const env = { ...STAGING, CONFORMANCE_TARGET: 'production', ALLOW_PRODUCTION_WRITES: 'yes' };
    expect(
      readLoadConfig({ ...env, REFERENCE_CONTROL_URL: 'http://127.0.0.1:1/__control/' }).controlUrl,
    ).toBeUndefined();
    expect(
      readLoadConfig({ ...STAGING, REFERENCE_CONTROL_URL: 'http://127.0.0.1:1/__control/' }).controlUrl,
    ).toBe('http://127.0.0.1:1/__control/');
  });

  it('names missing credentials of the scheme a script uses', () => {
    const config = readLoadConfig({ API_BASE_URL: 'http://127.0.0.1:1/api/', API_KEY_ID: 'k' });
    expect(() => requireCredentials(config, 'apiKey')).toThrow(/^API_KEY_SECRET not set/);
    expect(() => requireCredentials(config, 'bearer')).toThrow(/^CLIENT_ID and CLIENT_SECRET not set/);
    expect(() => requireCredentials(readLoadConfig(STAGING), 'bearer')).not.toThrow();
  });

  it('lists the secrets to keep out of reports', () => {
    expect(secretValues(readLoadConfig(STAGING)).sort()).toEqual([
      'api-key-secret-value',
      'client-secret-value',
    ]);
  });

  it('never lets the pet demo run against production', () => {
    expect(petstoreAllowed(readLoadConfig(STAGING))).toBe(true);
    const prod = readLoadConfig({
      ...STAGING,
      CONFORMANCE_TARGET: 'production',
      ALLOW_PRODUCTION_WRITES: 'yes',
    });
    expect(petstoreAllowed(prod)).toBe(false);
    expect(petstoreAllowed(readLoadConfig({ ...STAGING, PETSTORE_BASE_URL: '' }))).toBe(false);
  });

  it('builds addresses under the base URLs', () => {
    const config = readLoadConfig(STAGING);
    expect(apiUrl(config, '/v1/customers', { page: 2 })).toBe(
      'https://staging.example.test/api/v1/customers?page=2',
    );
    expect(petstoreUrl(config, 'pets', { limit: 20 })).toBe(
      'https://pets.staging.example.test/v1/pets?limit=20',
    );
  });
});

describe('environment values', () => {
  it('parses k6-style durations', () => {
    expect(parseDurationSeconds('90s')).toBe(90);
    expect(parseDurationSeconds('2m')).toBe(120);
    expect(parseDurationSeconds('1h30m')).toBe(5400);
    expect(parseDurationSeconds('500ms')).toBe(0.5);
    expect(parseDurationSeconds('15')).toBe(15);
    expect(parseDurationSeconds('soon')).toBeUndefined();
    expect(parseDurationSeconds('')).toBeUndefined();
  });

  it('names the variable and the expectation when a value is wrong', () => {
    expect(() => envNumber({ X: 'abc' }, 'X', 1, { min: 0, max: 5 })).toThrow(
      'X="abc" is not valid: expected a number from 0 to 5',
    );
    expect(() => envNumber({ X: '1.5' }, 'X', 1, { integer: true })).toThrow(/an integer/);
    expect(() => envDuration({ D: '5 minutes' }, 'D', 1)).toThrow(/D="5 minutes".*90s, 2m/);
    expect(envNumber({ X: ' ' }, 'X', 7)).toBe(7);
  });
});
