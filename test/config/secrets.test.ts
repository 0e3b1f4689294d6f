// secretValues: what redaction and the leak scans look for, from settings or a resolved target.
import { describe, expect, it } from 'vitest';
import { resolveTarget, SECRET_VARIABLES, secretValues } from '../../src/config/index.ts';
import { SECRETS, STAGING, settingsOf } from './helpers.ts';

describe('secretValues', () => {
  it('gives every configured secret of the settings, and nothing else', () => {
    expect(secretValues(settingsOf(STAGING)).sort()).toEqual(Object.values(SECRETS).sort());
  });

  it('gives the same secrets for the resolved target', () => {
    const settings = settingsOf(STAGING);
    expect(secretValues(resolveTarget(settings)).sort()).toEqual(secretValues(settings).sort());
  });

  it('covers every variable named secret', () => {
    const settings = settingsOf(STAGING);
    for (const name of SECRET_VARIABLES) {
      expect(secretValues(settings), name).toContain((STAGING as Record<string, string>)[name]);
    }
  });

  it('leaves out what is unset and gives each value once', () => {
    const settings = settingsOf({
      ...STAGING,
      API_KEY_SECRET: SECRETS.CLIENT_SECRET,
      PINNED_API_KEY_ID: '',
      PINNED_API_KEY_SECRET: '',
      EXPIRED_ACCESS_TOKEN: '',
    });
    expect(secretValues(settings)).toEqual([SECRETS.CLIENT_SECRET]);
    expect(secretValues(settingsOf({}))).toEqual([]);
  });

  it('gives the secrets of the started server for the local target, not those of .env', () => {
    const config = resolveTarget(settingsOf({ ...STAGING, CONFORMANCE_TARGET: 'local' }), {
      apiBaseUrl: 'http://127.0.0.1:1/api/',
      petstoreBaseUrl: 'http://127.0.0.1:1/petstore/v1',
      credentials: {
        clientId: 'c',
        clientSecret: 'server-client-secret',
        apiKeyId: 'k',
        apiKeySecret: 'server-key-secret',
        pinnedApiKeyId: 'p',
        pinnedApiKeySecret: 'server-pinned-secret',
      },
    });
    expect(secretValues(config).sort()).toEqual([
      'server-client-secret',
      'server-key-secret',
      'server-pinned-secret',
    ]);
  });
});
