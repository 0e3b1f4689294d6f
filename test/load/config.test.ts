// The load scripts' configuration, both ways in: the hand-over of `npm run load:*` (LOAD_TARGET,
// from the validated configuration) and the direct-run variables of .env.example; the production
// refusal (the shared guard) on both; one-line errors that never echo a secret or a URL's credentials.
import { describe, expect, it } from 'vitest';
import { readSwitch } from '../../common/config-rules.ts';
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
import { guard, type TargetConfig } from '../../src/config/index.ts';
import { handOver } from '../../src/launcher/k6-env.ts';

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
    ['off', true],
    // Every switch takes the same words, in any case (issue 33): yes, true, on, 1.
    ['YES', false],
    ['true', false],
    ['yes', false],
  ])('ALLOW_PRODUCTION_WRITES=%s refuses: %s', (allow, refused) => {
    const env = { ...STAGING, CONFORMANCE_TARGET: 'production', ALLOW_PRODUCTION_WRITES: allow };
    if (refused) {
      expect(() => readLoadConfig(env)).toThrow(LoadConfigError);
      expect(() => readLoadConfig(env)).toThrow(/refusing to load production.*ALLOW_PRODUCTION_WRITES=yes/);
    } else {
      expect(readLoadConfig(env).target).toBe('production');
    }
    // The scripts and the npm scripts agree with the one guard of src/config, reading the same switch.
    const read = readSwitch(allow, false);
    const verdict = guard({ target: 'production', allowProductionWrites: read.ok && read.value }, 'load');
    expect(verdict.allowed).toBe(!refused);
  });

  it('refuses before looking at anything else, in one line', () => {
    const reason = productionRefusal({ target: 'production', allowProductionWrites: false });
    expect(reason).toMatch(/production/);
    expect(reason).not.toMatch(/\n/);
    expect(() => readLoadConfig({ CONFORMANCE_TARGET: 'production', API_BASE_URL: 'nonsense' })).toThrow(
      /refusing to load production/,
    );
  });

  it('lets staging and local run without the switch', () => {
    expect(productionRefusal({ target: 'staging', allowProductionWrites: false })).toBeUndefined();
    expect(productionRefusal({ target: 'local', allowProductionWrites: false })).toBeUndefined();
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

describe('readLoadConfig, direct run (the individual variables)', () => {
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
      /local, staging, production/,
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

const CONFIG: TargetConfig = {
  target: 'staging',
  apiBaseUrl: 'https://staging.example.test/api/',
  petstoreBaseUrl: 'https://pets.staging.example.test/v1',
  credentials: {
    clientId: 'client',
    clientSecret: 'client-secret-value',
    apiKeyId: 'key',
    apiKeySecret: 'api-key-secret-value',
    pinnedApiKey: { id: 'pinned', secret: 'pinned-secret-value' },
  },
  expiredAccessToken: 'expired-token-value',
  controlUrl: 'http://127.0.0.1:4010/__control/',
  allowProductionWrites: false,
  requestTimeoutMs: 2500,
  strict: true,
  slow: false,
};

const handed = (config: TargetConfig, reportDir = '/tmp/out/') =>
  handOver(config, { reportDir, petstore: true, control: true });

describe('readLoadConfig, the hand-over of npm run load:* (LOAD_TARGET)', () => {
  it('gives the scripts the validated configuration as the launcher wrote it', () => {
    expect(readLoadConfig({ LOAD_TARGET: handed(CONFIG) })).toEqual({
      target: 'staging',
      apiBaseUrl: CONFIG.apiBaseUrl,
      petstoreBaseUrl: CONFIG.petstoreBaseUrl,
      clientId: 'client',
      clientSecret: 'client-secret-value',
      apiKeyId: 'key',
      apiKeySecret: 'api-key-secret-value',
      allowProductionWrites: false,
      controlUrl: CONFIG.controlUrl,
      reportDir: '/tmp/out',
      requestTimeoutMs: 2500,
    });
  });

  it('builds the same LoadConfig as the direct run of the same configuration', () => {
    const direct = readLoadConfig({
      ...STAGING,
      REQUEST_TIMEOUT_MS: '2500',
      REFERENCE_CONTROL_URL: CONFIG.controlUrl,
      K6_REPORT_DIR: '/tmp/out/',
    });
    expect(readLoadConfig({ LOAD_TARGET: handed(CONFIG) })).toEqual(direct);
  });

  it('is the only thing read when present: variables of the environment cannot override it', () => {
    const config = readLoadConfig({
      LOAD_TARGET: handed(CONFIG),
      CONFORMANCE_TARGET: 'production',
      API_BASE_URL: 'https://elsewhere.example.test/api/',
      API_KEY_SECRET: 'leftover-secret',
      REQUEST_TIMEOUT_MS: 'nonsense',
      K6_REPORT_DIR: '/elsewhere',
    });
    expect(config).toMatchObject({
      target: 'staging',
      apiBaseUrl: CONFIG.apiBaseUrl,
      apiKeySecret: 'api-key-secret-value',
      requestTimeoutMs: 2500,
      reportDir: '/tmp/out',
    });
  });

  it('carries only the k6 rows: no secret the scripts do not need, none of the suite switches', () => {
    const text = handed(CONFIG);
    expect(text).not.toContain('pinned-secret-value');
    expect(text).not.toContain('expired-token-value');
    expect(Object.keys(JSON.parse(text)).sort()).toEqual([
      'allowProductionWrites',
      'apiBaseUrl',
      'apiKeyId',
      'apiKeySecret',
      'clientId',
      'clientSecret',
      'controlUrl',
      'petstoreBaseUrl',
      'reportDir',
      'requestTimeoutMs',
      'target',
    ]);
  });

  it.each([
    ['not JSON', '{"target": "staging", "clientSecret": "client-secret-value"', /not JSON/],
    ['not an object', '["staging"]', /not a JSON object/],
    [
      'an unknown field',
      JSON.stringify({ ...JSON.parse(handed(CONFIG)), strict: true }),
      /unsupported field "strict"/,
    ],
    [
      'an unknown target',
      JSON.stringify({ ...JSON.parse(handed(CONFIG)), target: 'qa' }),
      /target is not local, staging or production/,
    ],
    [
      'a missing address',
      JSON.stringify({ ...JSON.parse(handed(CONFIG)), apiBaseUrl: undefined }),
      /apiBaseUrl is not a non-empty string/,
    ],
    [
      'a switch as text',
      JSON.stringify({ ...JSON.parse(handed(CONFIG)), allowProductionWrites: 'yes' }),
      /allowProductionWrites is not true or false/,
    ],
    [
      'a timeout as text',
      JSON.stringify({ ...JSON.parse(handed(CONFIG)), requestTimeoutMs: '2500' }),
      /requestTimeoutMs is not a whole number/,
    ],
  ])('refuses %s in one line, never quoting a secret', (_, text, reason) => {
    let message = '';
    try {
      readLoadConfig({ LOAD_TARGET: text });
    } catch (error) {
      expect(error).toBeInstanceOf(LoadConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^LOAD_TARGET is not valid: /);
    expect(message).toMatch(reason);
    expect(message).toMatch(/unset it to run with the individual variables/);
    expect(message).not.toMatch(/\n|client-secret-value|api-key-secret-value/);
  });

  it('withholds the pet demo and the control API from production, whatever the launcher was asked', () => {
    const prod = { ...CONFIG, target: 'production' as const, allowProductionWrites: true };
    const config = readLoadConfig({ LOAD_TARGET: handed(prod) });
    expect(config.petstoreBaseUrl).toBeUndefined();
    expect(config.controlUrl).toBeUndefined();
    expect(petstoreAllowed(config)).toBe(false);
    // A hand-over written by hand with a control URL for production still loses it inside k6.
    const forged = JSON.stringify({ ...JSON.parse(handed(prod)), controlUrl: CONFIG.controlUrl });
    expect(readLoadConfig({ LOAD_TARGET: forged }).controlUrl).toBeUndefined();
  });
});
