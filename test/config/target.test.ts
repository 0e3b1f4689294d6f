// resolveTarget: the remote targets take everything from the settings; the local target takes URLs
// and credentials from the started reference server and ignores those of .env, which describe some
// other environment.
import { describe, expect, it } from 'vitest';
import { type LocalServerInfo, resolveTarget, type TargetSettings } from '../../src/config/index.ts';
import { loopbackSource } from '../../src/config/target.ts';
import { problemsOf, SECRETS, STAGING, settingsOf } from './helpers.ts';

const SERVER: LocalServerInfo = {
  apiBaseUrl: 'http://127.0.0.1:40001/api/',
  petstoreBaseUrl: 'http://127.0.0.1:40001/petstore/v1',
  controlUrl: 'http://127.0.0.1:40001/__control/',
  credentials: {
    clientId: 'server-client',
    clientSecret: 'server-client-secret',
    apiKeyId: 'server-key',
    apiKeySecret: 'server-key-secret',
    pinnedApiKeyId: 'server-pinned',
    pinnedApiKeySecret: 'server-pinned-secret',
  },
};

describe('a remote target', () => {
  it('resolves to exactly what the settings say', () => {
    expect(resolveTarget(settingsOf(STAGING))).toEqual({
      target: 'staging',
      apiBaseUrl: 'https://staging.example.com/api/',
      petstoreBaseUrl: 'https://petstore.staging.example.com/v1',
      credentials: {
        clientId: 'cfg-client',
        clientSecret: SECRETS.CLIENT_SECRET,
        apiKeyId: 'cfg-key',
        apiKeySecret: SECRETS.API_KEY_SECRET,
        pinnedApiKey: { id: 'cfg-pinned-key', secret: SECRETS.PINNED_API_KEY_SECRET },
      },
      disabledFeatureRoute: '/v1/reports',
      expiredAccessToken: SECRETS.EXPIRED_ACCESS_TOKEN,
      controlUrl: 'http://127.0.0.1:8080/__control/',
      allowProductionWrites: false,
      productionApiBaseUrl: 'https://api.example.com/api/',
      productionPetstoreBaseUrl: 'https://petstore.example.com/v1',
      requestTimeoutMs: 5000,
      strict: false,
      slow: true,
    });
  });

  it('leaves the optional parts out when unset', () => {
    const minimal = settingsOf({
      ...STAGING,
      PINNED_API_KEY_ID: '',
      PINNED_API_KEY_SECRET: '',
      DISABLED_FEATURE_ROUTE: '',
      EXPIRED_ACCESS_TOKEN: '',
      REFERENCE_CONTROL_URL: '',
      PRODUCTION_API_BASE_URL: '',
      PRODUCTION_PETSTORE_BASE_URL: '',
    });
    const config = resolveTarget(minimal);
    expect(Object.keys(config).sort()).toEqual(
      [
        'target',
        'apiBaseUrl',
        'petstoreBaseUrl',
        'credentials',
        'allowProductionWrites',
        'requestTimeoutMs',
        'strict',
        'slow',
      ].sort(),
    );
    expect(config.credentials).not.toHaveProperty('pinnedApiKey');
  });

  it('carries the production settings the guard reads', () => {
    const config = resolveTarget(
      settingsOf({ ...STAGING, CONFORMANCE_TARGET: 'production', ALLOW_PRODUCTION_WRITES: 'yes' }),
    );
    expect(config).toMatchObject({ target: 'production', allowProductionWrites: true });
  });

  it('refuses incomplete settings (a programming error: loadSettings never gives them)', () => {
    const incomplete: TargetSettings = { ...settingsOf(STAGING), apiKeySecret: undefined };
    expect(() => resolveTarget(incomplete)).toThrow(/incomplete/);
    // The message names the target, never a value.
    expect(() => resolveTarget(incomplete)).not.toThrow(SECRETS.CLIENT_SECRET);
  });
});

describe('the pinned address and the caller address come from configuration', () => {
  it('PINNED_API_KEY_ADDRESS joins the pinned key', () => {
    const config = resolveTarget(
      settingsOf({
        ...STAGING,
        PINNED_API_KEY_ID: 'pk',
        PINNED_API_KEY_SECRET: 'pk-secret-value',
        PINNED_API_KEY_ADDRESS: '198.51.100.7',
      }),
    );
    expect(config.credentials.pinnedApiKey).toEqual({
      id: 'pk',
      secret: 'pk-secret-value',
      address: '198.51.100.7',
    });
  });

  it('refuses a pinned address that is not an IP address', () => {
    const problems = problemsOf({ ...STAGING, PINNED_API_KEY_ADDRESS: 'staging.example' });
    expect(problems.map((p) => p.variable)).toContain('PINNED_API_KEY_ADDRESS');
  });

  it('knows the caller address only for a literal loopback address', () => {
    expect(loopbackSource('http://127.0.0.1:8080/api/')).toBe('127.0.0.1');
    expect(loopbackSource('http://[::1]:8080/api/')).toBe('::1');
    expect(loopbackSource('https://staging.example/api/')).toBeUndefined();
    expect(loopbackSource('http://localhost:8080/api/')).toBeUndefined();
  });
});

describe('the local target', () => {
  it('takes URLs, credentials and the control API from the started server', () => {
    expect(resolveTarget(settingsOf({}), SERVER)).toEqual({
      target: 'local',
      apiBaseUrl: SERVER.apiBaseUrl,
      petstoreBaseUrl: SERVER.petstoreBaseUrl,
      controlUrl: SERVER.controlUrl,
      // A loopback connection comes from the address it goes to: the run knows it unasked.
      callerAddress: '127.0.0.1',
      credentials: {
        clientId: 'server-client',
        clientSecret: 'server-client-secret',
        apiKeyId: 'server-key',
        apiKeySecret: 'server-key-secret',
        pinnedApiKey: { id: 'server-pinned', secret: 'server-pinned-secret' },
      },
      allowProductionWrites: false,
      requestTimeoutMs: 10_000,
      strict: false,
      slow: true,
    });
  });

  it('ignores the credentials, URLs and routes of .env but keeps the run settings', () => {
    const settings = settingsOf({
      ...STAGING,
      CONFORMANCE_TARGET: 'local',
      REQUEST_TIMEOUT_MS: '777',
      CONFORMANCE_STRICT: '1',
      CONFORMANCE_SLOW: '0',
    });
    const config = resolveTarget(settings, SERVER);
    expect(config).toMatchObject({
      target: 'local',
      apiBaseUrl: SERVER.apiBaseUrl,
      credentials: { clientId: 'server-client', clientSecret: 'server-client-secret' },
      requestTimeoutMs: 777,
      strict: true,
      slow: false,
    });
    expect(JSON.stringify(config)).not.toContain('cfg-');
    expect(config).not.toHaveProperty('disabledFeatureRoute');
    expect(config).not.toHaveProperty('expiredAccessToken');
  });

  it('uses REFERENCE_CONTROL_URL when the server offers no control API', () => {
    const { controlUrl: _none, ...withoutControl } = SERVER;
    const settings = settingsOf({ REFERENCE_CONTROL_URL: 'http://127.0.0.1:9/__control/' });
    expect(resolveTarget(settings, withoutControl).controlUrl).toBe('http://127.0.0.1:9/__control/');
    expect(resolveTarget(settingsOf({}), withoutControl)).not.toHaveProperty('controlUrl');
  });

  it('has no pinned key when the server has none', () => {
    const { pinnedApiKeyId: _id, pinnedApiKeySecret: _secret, ...credentials } = SERVER.credentials;
    expect(resolveTarget(settingsOf({}), { ...SERVER, credentials }).credentials).not.toHaveProperty(
      'pinnedApiKey',
    );
  });

  it('needs the started server', () => {
    expect(() => resolveTarget(settingsOf({}))).toThrow(/reference server/);
  });
});
