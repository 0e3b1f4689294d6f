// load/lib (inside k6) and src/config (the npm scripts) must agree on when load may run: k6 run
// directly must refuse exactly what `npm run load:*` refuses, and an unnamed remote besides; the
// hand-over of `npm run load:*` is refused inside k6 again (defence in depth: real money).
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, urlHost } from '../../common/config-rules.ts';
import { loadRefusal, productionRefusal, readLoadConfig, remoteRefusal } from '../../load/lib/config.ts';
import { guard, loadSettings, type TargetConfig } from '../../src/config/index.ts';
import { handOver } from '../../src/launcher/k6-env.ts';

const REMOTE = {
  API_BASE_URL: 'https://api.example.test/api/',
  PETSTORE_BASE_URL: 'https://pets.example.test/v1',
  CLIENT_ID: 'client',
  CLIENT_SECRET: 'client-secret-value',
  API_KEY_ID: 'key',
  API_KEY_SECRET: 'api-key-secret-value',
};

/** What src/config decides for `npm run load:*`: a valid configuration, and the guard's yes. */
function srcAllows(env: Record<string, string | undefined>): boolean {
  const loaded = loadSettings(env, { envFile: false });
  return loaded.ok && guard(loaded.settings, 'load').allowed;
}

function loadLibAllows(env: Record<string, string | undefined>): boolean {
  try {
    readLoadConfig(env);
    return true;
  } catch {
    return false;
  }
}

const TARGETS = ['staging', 'production', 'PRODUCTION', 'Staging'];
const SWITCHES = [undefined, '', 'yes', ' yes ', 'no', 'YES', 'true', '1', 'y'];

describe('load/lib agrees with guard() of src/config', () => {
  const rows = TARGETS.flatMap((target) => SWITCHES.map((allow) => [target, allow] as const));

  it.each(rows)('CONFORMANCE_TARGET=%s ALLOW_PRODUCTION_WRITES=%j', (target, allow) => {
    const env = { ...REMOTE, CONFORMANCE_TARGET: target, ALLOW_PRODUCTION_WRITES: allow };
    expect(loadLibAllows(env)).toBe(srcAllows(env));
  });

  it('refuses production for the same reason, naming the switch', () => {
    const target = { target: 'production', allowProductionWrites: false };
    const verdict = guard(target, 'load');
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed === false && verdict.reason).toMatch(/ALLOW_PRODUCTION_WRITES=yes/);
    expect(productionRefusal(target)).toContain(verdict.allowed === false ? verdict.reason : '?');
  });
});

/** The hand-over the launcher would write for this target (it refuses before writing; k6 refuses again). */
function handedOver(
  target: TargetConfig['target'],
  allowProductionWrites: boolean,
  apiBaseUrl = REMOTE.API_BASE_URL,
) {
  const config: TargetConfig = {
    target,
    apiBaseUrl,
    petstoreBaseUrl: REMOTE.PETSTORE_BASE_URL,
    credentials: {
      clientId: 'client',
      clientSecret: 'client-secret-value',
      apiKeyId: 'key',
      apiKeySecret: 'api-key-secret-value',
    },
    allowProductionWrites,
    requestTimeoutMs: 10_000,
    strict: false,
    slow: true,
  };
  return { LOAD_TARGET: handOver(config, { reportDir: 'reports', petstore: false, control: false }) };
}

describe('the hand-over is refused inside k6 exactly as guard() refuses it', () => {
  it.each([
    ['staging', false],
    ['staging', true],
    ['production', false],
    ['production', true],
    ['local', false],
  ] as const)('target %s, allowProductionWrites %s', (target, allow) => {
    const apiBaseUrl = target === 'local' ? 'http://127.0.0.1:4010/api/' : REMOTE.API_BASE_URL;
    expect(loadLibAllows(handedOver(target, allow, apiBaseUrl))).toBe(
      guard({ target, allowProductionWrites: allow }, 'load').allowed,
    );
  });

  it('refuses a local target whose address is not on this machine', () => {
    expect(() => readLoadConfig(handedOver('local', false))).toThrow(
      /^refusing to load api\.example\.test: .*CONFORMANCE_TARGET is local/,
    );
  });

  it('refuses production with the guard reason, whatever the environment beside it says', () => {
    expect(() =>
      readLoadConfig({
        ...handedOver('production', false),
        CONFORMANCE_TARGET: 'staging',
        ALLOW_PRODUCTION_WRITES: 'yes',
      }),
    ).toThrow(/^refusing to load production: .*ALLOW_PRODUCTION_WRITES=yes/);
  });
});

describe('an unnamed remote target is refused inside k6', () => {
  it.each([
    // [CONFORMANCE_TARGET, API_BASE_URL, refused]
    [undefined, 'https://api.example.test/api/', true],
    ['', 'https://api.example.test/api/', true],
    ['local', 'https://api.example.test/api/', true],
    [undefined, 'http://10.0.0.5:8080/api/', true],
    [undefined, 'http://[2001:db8::1]:8080/api/', true],
    [undefined, 'http://127.0.0.1:4010/api/', false],
    [undefined, 'http://127.9.8.7:4010/api/', false],
    [undefined, 'http://localhost:4010/api/', false],
    [undefined, 'http://api.localhost/api/', false],
    [undefined, 'http://[::1]:4010/api/', false],
    ['staging', 'https://api.example.test/api/', false],
    ['production', 'https://api.example.test/api/', true], // the production switch is missing
  ])('CONFORMANCE_TARGET=%j API_BASE_URL=%s refused: %s', (target, url, refused) => {
    const env = { ...REMOTE, CONFORMANCE_TARGET: target, API_BASE_URL: url };
    const input = { target: target || 'local', allowProductionWrites: false, apiBaseUrl: url };
    expect(loadRefusal(input) !== undefined).toBe(refused);
    expect(loadLibAllows(env)).toBe(!refused);
  });

  it('says why and how to mean it, in one line, without credentials of the URL', () => {
    const reason = remoteRefusal(
      { target: 'local', allowProductionWrites: false, apiBaseUrl: 'https://api.example.test/api/' },
      false,
    );
    expect(reason).toMatch(
      /^refusing to load api\.example\.test: .*CONFORMANCE_TARGET is not set; set CONFORMANCE_TARGET=staging/,
    );
    expect(reason).not.toMatch(/\n/);
    // An address with credentials is no address the rule reads: refused, the credentials unshown.
    expect(() =>
      readLoadConfig({ ...REMOTE, API_BASE_URL: 'https://user:pw-secret-1@api.example.test/api/' }),
    ).toThrow(/^API_BASE_URL is not valid: it carries a user name or password$/);
    expect(
      remoteRefusal({ target: 'local', allowProductionWrites: false, apiBaseUrl: 'https://x.test/api/' }),
    ).toMatch(/CONFORMANCE_TARGET is local/);
    // The direct run says so whether CONFORMANCE_TARGET was left unset or said local.
    expect(() => readLoadConfig({ ...REMOTE })).toThrow(/CONFORMANCE_TARGET is not set/);
    expect(() => readLoadConfig({ ...REMOTE, CONFORMANCE_TARGET: 'local' })).toThrow(
      /CONFORMANCE_TARGET is local/,
    );
  });

  it('reads hosts without a URL parser (k6 has none built in)', () => {
    expect(urlHost('HTTP://Example.TEST:8080/api/')).toBe('example.test');
    expect(urlHost('http://[::1]:1/api/')).toBe('[::1]');
    expect(urlHost('http://u:p@h.test/api/')).toBeUndefined(); // user info: not read, fail closed
    expect(urlHost('ftp://h.test/')).toBeUndefined();
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('localhost.example.test')).toBe(false);
  });
});

// Production is named once by its addresses; a run labelled staging against any spelling of them
// is production, in src/config and in load/lib alike.
describe('production declared by its addresses', () => {
  const DECLARED = {
    PRODUCTION_API_BASE_URL: 'http://127.0.0.1:9/api/',
    PRODUCTION_PETSTORE_BASE_URL: 'https://pets.production.test/v1',
  };
  const spellings = ['127.0.0.1', '127.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '[::ffff:127.0.0.1]'];

  it.each(spellings)('a staging run against %s loads nothing and writes nothing', (host) => {
    const env = {
      ...REMOTE,
      ...DECLARED,
      CONFORMANCE_TARGET: 'staging',
      API_BASE_URL: `http://${host}:8080/api/`,
    };
    const loaded = loadSettings(env, { envFile: false });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    for (const action of ['load', 'write', 'petstore'] as const) {
      const verdict = guard(loaded.settings, action);
      expect(verdict.allowed, action).toBe(false);
      if (!verdict.allowed) expect(verdict.reason).toContain('127.0.0.1 is a production address');
    }
    expect(loadLibAllows(env)).toBe(false);
    expect(() => readLoadConfig(env)).toThrow(/refusing to load production: its address is real money/);
  });

  it('the pet address counts too, and ALLOW_PRODUCTION_WRITES=yes still opens writes and load', () => {
    const env = {
      ...REMOTE,
      ...DECLARED,
      CONFORMANCE_TARGET: 'staging',
      PETSTORE_BASE_URL: 'https://PETS.production.test./v1',
    };
    expect(srcAllows(env)).toBe(false);
    expect(loadLibAllows(env)).toBe(false);
    expect(srcAllows({ ...env, ALLOW_PRODUCTION_WRITES: 'yes' })).toBe(true);
  });

  it('another host is not production', () => {
    const env = {
      ...REMOTE,
      ...DECLARED,
      CONFORMANCE_TARGET: 'staging',
      API_BASE_URL: 'http://127.0.0.2:8080/api/',
    };
    expect(srcAllows(env)).toBe(true);
    expect(loadLibAllows(env)).toBe(true);
  });
});
