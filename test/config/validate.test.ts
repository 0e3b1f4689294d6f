// Validation of every variable: what each accepts, what it refuses and how the problem reads
// (which variable, what is wrong, what is expected), and that every problem is listed at once.
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../../common/config-rules.ts';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_SECRET_LENGTH } from '../../src/config/index.ts';
import { validate } from '../../src/config/validate.ts';
import { DEFAULT_CREDENTIALS } from '../../src/reference/credentials.ts';
import { KNOWN_VARIABLES, problemsOf, SECRETS, STAGING, settingsOf, variablesOf } from './helpers.ts';

describe('with nothing configured', () => {
  it('gives the local target with the defaults', () => {
    expect(settingsOf({})).toEqual({
      target: 'local',
      allowProductionWrites: false,
      requestTimeoutMs: DEFAULT_TIMEOUT_MS,
      strict: false,
      slow: true,
    });
  });

  it('treats empty and blank values as unset', () => {
    const blank = Object.fromEntries(KNOWN_VARIABLES.map((name, i) => [name, i % 2 ? '' : '   ']));
    expect(settingsOf(blank)).toEqual(settingsOf({}));
  });

  it('ignores variables it does not know', () => {
    expect(settingsOf({ PATH: '/usr/bin', api_base_url: 'nonsense', HOME: '\u0000' })).toEqual(
      settingsOf({}),
    );
  });
});

describe('a complete remote configuration', () => {
  it('gives every value, trimmed', () => {
    const padded = Object.fromEntries(Object.entries(STAGING).map(([k, v]) => [k, ` ${v}\t`]));
    expect(settingsOf(padded)).toEqual({
      target: 'staging',
      apiBaseUrl: 'https://staging.example.com/api/',
      petstoreBaseUrl: 'https://petstore.staging.example.com/v1',
      clientId: 'cfg-client',
      clientSecret: SECRETS.CLIENT_SECRET,
      apiKeyId: 'cfg-key',
      apiKeySecret: SECRETS.API_KEY_SECRET,
      pinnedApiKeyId: 'cfg-pinned-key',
      pinnedApiKeySecret: SECRETS.PINNED_API_KEY_SECRET,
      disabledFeatureRoute: '/v1/reports',
      expiredAccessToken: SECRETS.EXPIRED_ACCESS_TOKEN,
      allowProductionWrites: false,
      productionApiBaseUrl: 'https://api.example.com/api/',
      productionPetstoreBaseUrl: 'https://petstore.example.com/v1',
      requestTimeoutMs: 5000,
      strict: false,
      slow: true,
      controlUrl: 'http://127.0.0.1:8080/__control/',
    });
  });
});

describe('CONFORMANCE_TARGET', () => {
  it.each([
    ['local', 'local'],
    ['staging', 'staging'],
    ['production', 'production'],
    ['Production', 'production'],
    ['STAGING', 'staging'],
  ])('accepts %j', (value, target) => {
    expect(settingsOf({ ...STAGING, CONFORMANCE_TARGET: value }).target).toBe(target);
  });

  it.each(['prod', 'stage', 'dev', 'local staging', 'ｌｏｃａｌ'])(
    'refuses %j, naming the choices',
    (value) => {
      const [problem, ...others] = problemsOf({ ...STAGING, CONFORMANCE_TARGET: value });
      expect(others).toEqual([]);
      expect(problem).toEqual({
        variable: 'CONFORMANCE_TARGET',
        problem: `is ${JSON.stringify(value)}`,
        expected: expect.stringContaining('local, staging, production'),
      });
    },
  );
});

describe('what a remote target requires', () => {
  const REQUIRED = [
    'API_BASE_URL',
    'PETSTORE_BASE_URL',
    'CLIENT_ID',
    'CLIENT_SECRET',
    'API_KEY_ID',
    'API_KEY_SECRET',
  ];

  it.each(['staging', 'production'])('%s needs both base URLs and all four credentials', (target) => {
    const problems = problemsOf({ CONFORMANCE_TARGET: target });
    expect(problems.map((p) => p.variable)).toEqual(REQUIRED);
    for (const p of problems) expect(p.problem).toBe(`is not set (required for the ${target} target)`);
  });

  it.each(REQUIRED)('names %s alone when only it is missing', (name) => {
    expect(variablesOf({ ...STAGING, [name]: undefined })).toEqual([name]);
  });

  it('the local target needs none of them', () => {
    expect(settingsOf({ CONFORMANCE_TARGET: 'local' }).target).toBe('local');
  });

  it('the optional variables stay optional for a remote target', () => {
    const minimal = Object.fromEntries(
      Object.entries(STAGING).filter(([k]) => k === 'CONFORMANCE_TARGET' || REQUIRED.includes(k)),
    );
    const settings = settingsOf(minimal);
    expect(settings).not.toHaveProperty('pinnedApiKeyId');
    expect(settings).not.toHaveProperty('disabledFeatureRoute');
    expect(settings).not.toHaveProperty('expiredAccessToken');
    expect(settings).not.toHaveProperty('controlUrl');
  });
});

describe('API_BASE_URL', () => {
  it.each([
    ['https://staging.example.com/api/', 'https://staging.example.com/api/'],
    ['http://127.0.0.1:8080/api/', 'http://127.0.0.1:8080/api/'],
    ['https://example.com/gateway/api/', 'https://example.com/gateway/api/'],
    // A missing final slash is forgiven: the meaning is not in doubt.
    ['https://staging.example.com/api', 'https://staging.example.com/api/'],
    ['HTTPS://Staging.Example.COM/api/', 'https://staging.example.com/api/'],
  ])('accepts %j as %j', (value, expected) => {
    expect(settingsOf({ ...STAGING, API_BASE_URL: value }).apiBaseUrl).toBe(expected);
  });

  it.each([
    ['https://staging.example.com/', /does not end with \/api\//],
    ['https://staging.example.com', /does not end with \/api\//],
    ['https://staging.example.com/api/v1/', /does not end with \/api\//],
    ['https://staging.example.com/apis/', /does not end with \/api\//],
    ['staging.example.com/api/', /is not an absolute URL/],
    ['/api/', /is not an absolute URL/],
    ['https://staging example.com/api/', /is not an absolute URL/],
    ['ftp://staging.example.com/api/', /uses the ftp: scheme/],
    ['file:///srv/api/', /uses the file: scheme/],
    ['https://staging.example.com/api/?debug=1', /has a query or fragment/],
    ['https://staging.example.com/api/#top', /has a query or fragment/],
  ])('refuses %j', (value, why) => {
    const problems = problemsOf({ ...STAGING, API_BASE_URL: value });
    expect(problems).toEqual([
      {
        variable: 'API_BASE_URL',
        problem: expect.stringMatching(why),
        expected: expect.stringContaining('absolute http(s) URL ending with /api/'),
      },
    ]);
  });

  it('refuses a URL carrying credentials without echoing them', () => {
    const [problem] = problemsOf({ ...STAGING, API_BASE_URL: 'https://admin:hunter2-pw@example.com/api/' });
    expect(problem?.variable).toBe('API_BASE_URL');
    expect(problem?.problem).toBe('carries a user name or password');
    expect(JSON.stringify(problem)).not.toContain('hunter2-pw');
  });

  it('is validated even for the local target, where it is not required', () => {
    expect(variablesOf({ API_BASE_URL: 'https://example.com/' })).toEqual(['API_BASE_URL']);
  });
});

describe('PETSTORE_BASE_URL', () => {
  it.each([
    ['https://petstore.example.com/v1', 'https://petstore.example.com/v1'],
    ['https://petstore.example.com/v1/', 'https://petstore.example.com/v1'],
    ['http://127.0.0.1:8080/petstore/v1', 'http://127.0.0.1:8080/petstore/v1'],
  ])('accepts %j as %j', (value, expected) => {
    expect(settingsOf({ ...STAGING, PETSTORE_BASE_URL: value }).petstoreBaseUrl).toBe(expected);
  });

  it.each([
    'https://petstore.example.com/',
    'https://petstore.example.com/v2',
    'https://petstore.example.com/v1/pets',
    'https://petstore.example.com/api/',
    'petstore.example.com/v1',
    'ws://petstore.example.com/v1',
  ])('refuses %j', (value) => {
    const problems = problemsOf({ ...STAGING, PETSTORE_BASE_URL: value });
    expect(problems).toEqual([
      {
        variable: 'PETSTORE_BASE_URL',
        problem: expect.any(String),
        expected: expect.stringContaining('absolute http(s) URL ending with /v1'),
      },
    ]);
  });
});

describe('credentials', () => {
  it.each(['CLIENT_ID', 'CLIENT_SECRET', 'API_KEY_ID', 'API_KEY_SECRET', 'PINNED_API_KEY_ID'])(
    '%s refuses what cannot travel in a header',
    (name) => {
      for (const bad of ['abc\u0000def', 'tab\tinside', 'line\nbreak', 'snow\u2603man', 'del\u007f']) {
        const problems = problemsOf({ ...STAGING, [name]: bad });
        expect(problems.map((p) => p.variable)).toContain(name);
        expect(problems.find((p) => p.variable === name)?.problem).toBe(
          'contains control or non-Latin-1 characters',
        );
      }
    },
  );

  it.each(['CLIENT_SECRET', 'API_KEY_SECRET', 'PINNED_API_KEY_SECRET', 'EXPIRED_ACCESS_TOKEN'])(
    '%s refuses a value too short to keep out of the reports, without quoting it',
    (name) => {
      const extra = name === 'PINNED_API_KEY_SECRET' ? { PINNED_API_KEY_ID: 'cfg-pinned' } : {};
      const problems = problemsOf({ ...STAGING, ...extra, [name]: 'b7x' });
      const problem = problems.find((p) => p.variable === name);
      expect(problem?.problem).toBe(`is shorter than ${MIN_SECRET_LENGTH} characters`);
      expect(JSON.stringify(problems)).not.toContain('b7x');
      expect(settingsOf({ ...STAGING, ...extra, [name]: 'b7x45678' }).target).toBe('staging');
    },
  );

  it('never rewrites its own words when a short secret is one of them', () => {
    for (const secret of ['short', 'the', 'char']) {
      const problems = problemsOf({ ...STAGING, CLIENT_SECRET: secret });
      const text = problems.map((p) => `${p.problem}; ${p.expected}`).join('\n');
      expect(text).not.toContain('[REDACTED]');
      expect(problems.find((p) => p.variable === 'CLIENT_SECRET')?.problem).toBe(
        `is shorter than ${MIN_SECRET_LENGTH} characters`,
      );
    }
  });

  it('never rewrites its own words when a secret long enough to keep is one of them', () => {
    // Values are filtered as they enter a message, never the message: a second pass over the
    // whole text would give "is shorter than 8 [REDACTED]" and "is not set ([REDACTED] for ...)".
    const problems = problemsOf({
      ...STAGING,
      CLIENT_SECRET: 'characters',
      EXPIRED_ACCESS_TOKEN: 'required',
      API_KEY_SECRET: 'b7x',
      API_KEY_ID: '',
    });
    expect(problems.find((p) => p.variable === 'API_KEY_SECRET')?.problem).toBe(
      `is shorter than ${MIN_SECRET_LENGTH} characters`,
    );
    expect(problems.find((p) => p.variable === 'API_KEY_ID')?.problem).toBe(
      'is not set (required for the staging target)',
    );
    // A value that carries the secret is still filtered.
    const quoted = problemsOf({ ...STAGING, CLIENT_SECRET: 'characters', REQUEST_TIMEOUT_MS: 'characters' });
    expect(quoted.find((p) => p.variable === 'REQUEST_TIMEOUT_MS')?.problem).toBe('is "[REDACTED]"');
  });

  it('accepts printable ASCII and Latin-1 values', () => {
    const value = 'Zé-~!@#$%^&*()_+={}[]|:;"\'<>,.?/ 0123';
    expect(settingsOf({ ...STAGING, CLIENT_SECRET: value }).clientSecret).toBe(value);
  });
});

describe('PINNED_API_KEY_ID and PINNED_API_KEY_SECRET', () => {
  it('are both or neither', () => {
    const { PINNED_API_KEY_ID: id, PINNED_API_KEY_SECRET: secret } = STAGING;
    expect(settingsOf({ ...STAGING, PINNED_API_KEY_ID: id, PINNED_API_KEY_SECRET: secret })).toMatchObject({
      pinnedApiKeyId: id,
      pinnedApiKeySecret: secret,
    });
    expect(settingsOf({ ...STAGING, PINNED_API_KEY_ID: '', PINNED_API_KEY_SECRET: '' })).not.toHaveProperty(
      'pinnedApiKeyId',
    );
  });

  it('name the missing half', () => {
    expect(problemsOf({ ...STAGING, PINNED_API_KEY_SECRET: '' })).toEqual([
      {
        variable: 'PINNED_API_KEY_SECRET',
        problem: 'is not set while PINNED_API_KEY_ID is',
        expected: 'both PINNED_API_KEY_ID and PINNED_API_KEY_SECRET, or neither',
      },
    ]);
    expect(variablesOf({ ...STAGING, PINNED_API_KEY_ID: ' ' })).toEqual(['PINNED_API_KEY_ID']);
  });

  it('are checked for the local target too', () => {
    expect(variablesOf({ PINNED_API_KEY_ID: 'only-the-id' })).toEqual(['PINNED_API_KEY_SECRET']);
  });
});

describe('DISABLED_FEATURE_ROUTE', () => {
  it.each(['/v1/reports', '/v1/user/me', '/v1/beta-exports'])('accepts %j', (value) => {
    expect(settingsOf({ ...STAGING, DISABLED_FEATURE_ROUTE: value }).disabledFeatureRoute).toBe(value);
  });

  it.each([
    'v1/reports',
    '/v1/',
    '/reports',
    '/api/v1/reports',
    'https://staging.example.com/api/v1/reports',
    '/v1/reports?x=1',
    '/v1/reports#top',
    '/v1/re ports',
    '/v1/reports\u0000',
    '/v1/rep\u001borts',
  ])('refuses %j', (value) => {
    expect(problemsOf({ ...STAGING, DISABLED_FEATURE_ROUTE: value })).toEqual([
      {
        variable: 'DISABLED_FEATURE_ROUTE',
        problem: expect.stringContaining('is not a main-service route'),
        expected: 'a GET route of the main service starting with /v1/, e.g. /v1/reports',
      },
    ]);
  });
});

describe('REQUEST_TIMEOUT_MS', () => {
  it.each([
    ['1', 1],
    ['250', 250],
    ['010000', 10_000],
    [String(MAX_TIMEOUT_MS), MAX_TIMEOUT_MS],
  ])('accepts %j', (value, ms) => {
    expect(settingsOf({ ...STAGING, REQUEST_TIMEOUT_MS: value }).requestTimeoutMs).toBe(ms);
  });

  it('defaults to 10000', () => {
    expect(settingsOf({ ...STAGING, REQUEST_TIMEOUT_MS: undefined }).requestTimeoutMs).toBe(10_000);
  });

  it.each([
    '0',
    '-5',
    String(MAX_TIMEOUT_MS + 1),
    '1e4',
    '10s',
    '10 000',
    '10_000',
    '2.5',
    'abc',
    'NaN',
    'Infinity',
    '0x10',
    '١٠٠٠', // Arabic-Indic digits
    '9'.repeat(400),
  ])('refuses %j with the bounds', (value) => {
    expect(problemsOf({ ...STAGING, REQUEST_TIMEOUT_MS: value })).toEqual([
      {
        variable: 'REQUEST_TIMEOUT_MS',
        problem: expect.stringMatching(/^is "/),
        expected: `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (default ${DEFAULT_TIMEOUT_MS})`,
      },
    ]);
  });
});

describe('CONFORMANCE_STRICT and CONFORMANCE_SLOW', () => {
  it('default to strict off and slow on', () => {
    expect(settingsOf({})).toMatchObject({ strict: false, slow: true });
  });

  it.each([
    ['0', false],
    ['1', true],
    ['no', false],
    ['yes', true],
    ['false', false],
    ['TRUE', true],
    ['off', false],
    ['On', true],
  ])('read %j as every switch does', (value, on) => {
    expect(settingsOf({ CONFORMANCE_STRICT: value, CONFORMANCE_SLOW: value })).toMatchObject({
      strict: on,
      slow: on,
    });
  });

  it.each(['2', '01', 'y', 'enabled'])('refuse %j', (value) => {
    const problems = problemsOf({ CONFORMANCE_STRICT: value, CONFORMANCE_SLOW: value });
    const words = 'on (1, yes, true or on) or off (0, no, false or off), in any case';
    expect(problems).toEqual([
      { variable: 'CONFORMANCE_STRICT', problem: `is "${value}"`, expected: `${words}; default off` },
      { variable: 'CONFORMANCE_SLOW', problem: `is "${value}"`, expected: `${words}; default on` },
    ]);
  });
});

describe('REFERENCE_CONTROL_URL', () => {
  it('accepts an http(s) URL', () => {
    expect(settingsOf({ REFERENCE_CONTROL_URL: 'http://127.0.0.1:9000/__control/' }).controlUrl).toBe(
      'http://127.0.0.1:9000/__control/',
    );
  });

  it.each(['127.0.0.1:9000', 'ftp://127.0.0.1/__control/', 'not a url'])('refuses %j', (value) => {
    expect(variablesOf({ REFERENCE_CONTROL_URL: value })).toEqual(['REFERENCE_CONTROL_URL']);
  });
});

describe('one message for everything', () => {
  it('lists every problem at once, in the order of the variables', () => {
    const problems = problemsOf({
      CONFORMANCE_TARGET: 'production',
      API_BASE_URL: 'https://prod.example.com/v1/',
      PETSTORE_BASE_URL: '',
      CLIENT_ID: 'id',
      CLIENT_SECRET: SECRETS.CLIENT_SECRET,
      API_KEY_SECRET: 'secret\u0001',
      PINNED_API_KEY_ID: 'pinned',
      DISABLED_FEATURE_ROUTE: 'reports',
      ALLOW_PRODUCTION_WRITES: 'maybe',
      REQUEST_TIMEOUT_MS: 'ten seconds',
      CONFORMANCE_STRICT: 'strict',
      CONFORMANCE_SLOW: 'slow',
      REFERENCE_CONTROL_URL: 'nowhere',
    });
    expect(problems.map((p) => p.variable)).toEqual([
      'API_BASE_URL',
      'PETSTORE_BASE_URL',
      'API_KEY_ID',
      'API_KEY_SECRET',
      'DISABLED_FEATURE_ROUTE',
      'ALLOW_PRODUCTION_WRITES',
      'REQUEST_TIMEOUT_MS',
      'CONFORMANCE_STRICT',
      'CONFORMANCE_SLOW',
      'REFERENCE_CONTROL_URL',
      'PINNED_API_KEY_SECRET',
    ]);
    for (const p of problems) {
      expect(p.problem.length, `${p.variable}: what is wrong`).toBeGreaterThan(0);
      expect(p.expected.length, `${p.variable}: what is expected`).toBeGreaterThan(0);
    }
  });

  it('keeps each problem to one line however long or broken the value', () => {
    const problems = problemsOf({
      CONFORMANCE_TARGET: `x${'y'.repeat(5000)}\r\nz`,
      API_BASE_URL: 'https://example.com/\u2028\u0085\u009b31m/',
      REQUEST_TIMEOUT_MS: '1\n2\t3\u001b[31m',
    });
    for (const p of problems) {
      expect(p.problem).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
      expect(p.problem.length).toBeLessThan(200);
    }
  });
});

describe('demo credentials', () => {
  const staging = {
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: 'https://staging.example.com/api/',
    PETSTORE_BASE_URL: 'https://petstore.staging.example.com/v1',
    CLIENT_ID: 'client',
    CLIENT_SECRET: 'a-real-staging-secret',
    API_KEY_ID: 'key',
    API_KEY_SECRET: 'a-real-staging-key-secret',
  };

  it('refuses each demo secret with a remote target, naming the variable and never the value', () => {
    for (const [variable, demo] of Object.entries(DEMO_SECRETS)) {
      const extra = variable === 'PINNED_API_KEY_SECRET' ? { PINNED_API_KEY_ID: 'pinned' } : {};
      const result = validate({ ...staging, ...extra, [variable]: demo });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]?.variable).toBe(variable);
      expect(result.problems[0]?.problem).toContain('demo value');
      expect(JSON.stringify(result.problems)).not.toContain(demo);
    }
  });

  it('accepts them for the local target and for a reference server started on this machine', () => {
    expect(validate({ CLIENT_SECRET: DEMO_SECRETS.CLIENT_SECRET }).ok).toBe(true);
    const onLoopback = {
      ...staging,
      API_BASE_URL: 'http://127.0.0.1:8080/api/',
      CLIENT_SECRET: DEMO_SECRETS.CLIENT_SECRET,
    };
    expect(validate(onLoopback).ok).toBe(true);
  });

  it('are the reference server credentials', () => {
    expect(DEMO_SECRETS).toEqual({
      CLIENT_SECRET: DEFAULT_CREDENTIALS.clientSecret,
      API_KEY_SECRET: DEFAULT_CREDENTIALS.apiKeySecret,
      PINNED_API_KEY_SECRET: DEFAULT_CREDENTIALS.pinnedApiKeySecret,
    });
  });
});

describe('CONFORMANCE_FLAG_WINDOW (tests against a short-window reference server)', () => {
  it('is unset by default: the checks judge the spec 60 s', () => {
    expect(settingsOf({}).flagWindowSeconds).toBeUndefined();
  });

  it.each([
    ['3', 3],
    ['0.5', 0.5],
    ['300', 300],
  ])('reads %j', (value, seconds) => {
    expect(settingsOf({ CONFORMANCE_FLAG_WINDOW: value }).flagWindowSeconds).toBe(seconds);
  });

  it.each(['0', '0.05', '301', '1m', '-3', 'NaN'])('refuses %j', (value) => {
    expect(problemsOf({ CONFORMANCE_FLAG_WINDOW: value })).toEqual([
      {
        variable: 'CONFORMANCE_FLAG_WINDOW',
        problem: `is "${value}"`,
        expected:
          "seconds from 0.1 to 300 (unset: the spec's 60 s; only for a reference server started with --flag-window)",
      },
    ]);
  });
});
