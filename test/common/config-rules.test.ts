// The configuration's rules live once (common/config-rules.ts): a .env that
// `npm run conformance` accepts, k6 run directly accepts (the same variables in its environment),
// and the other way round; where k6 refuses more, it is the load guard (production without the
// switch, a remote address for the local target), never a rule read differently. (What must be
// set differs by use: a k6 script asks only for the credentials of its scheme, and for no pet
// address; the properties below set them all.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { onThisMachine, readBaseUrl, readHttpUrl, readTimeout } from '../../common/config-rules.ts';
import { readLoadConfig } from '../../load/lib/config.ts';
import { LoadConfigError } from '../../load/lib/env.ts';
import { guard, loadSettings } from '../../src/config/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'config-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Set whatever else is drawn: a pinned key needs its id beside its secret in the suite. */
const CREDENTIALS = { API_KEY_ID: 'rules-key', PINNED_API_KEY_ID: 'rules-pinned-key' };

/** Values near and far from what each rule wants (printable, so a .env line holds them as they are). */
const address = (ending: string) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom('http://127.0.0.1:4010', 'https://api.example.test', 'HTTP://LOCALHOST:8080'),
          fc.constantFrom('', '/gw'),
        )
        .map(([origin, prefix]) => `${origin}${prefix}${ending}`),
    },
    fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', '', 'https://u:p@', 'file://'),
        fc.oneof(
          fc.constantFrom('127.0.0.1', '127.0.0.2', 'localhost', 'api.example.test', '[::1]', 'Example.TEST'),
          fc.webAuthority({ withPort: true }),
          fc.string({ unit: fc.constantFrom('a', '.', '-', ':', '1', '@', ' ', '/'), maxLength: 6 }),
        ),
        fc.constantFrom('', ':8080', ':0', ':80', ':443', ':99999', ':0080'),
        fc.constantFrom(
          ending,
          `${ending}/`,
          '/api',
          '/api/',
          '/v1',
          '/v1/',
          '/x/api/',
          '/a b/api/',
          '/./api/',
          '/',
          '',
          '?q=1',
          `${ending}?t=1`,
          `${ending}#f`,
          '\\api/',
        ),
      )
      .map((parts) => parts.join('')),
    fc.webUrl(),
  );

/** Mostly what the rule wants, sometimes anything from the list. */
const mostly = (valid: string[], any: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: any });

const variables = fc.record(
  {
    CONFORMANCE_TARGET: fc.constantFrom(
      'local',
      'staging',
      'production',
      'Staging',
      'PRODUCTION',
      'qa',
      ' staging ',
    ),
    API_BASE_URL: address('/api/'),
    PETSTORE_BASE_URL: address('/v1'),
    ALLOW_PRODUCTION_WRITES: mostly(['yes', 'no'], fc.constantFrom('true', 'YES', '1', '')),
    CLIENT_ID: mostly(['rules-client', 'c'], fc.constantFrom('tab\tinside', 'snow\u2603man', 'del\u007f')),
    CLIENT_SECRET: mostly(
      ['rules-client-secret-0001', '12345678'],
      fc.constantFrom(
        'short',
        '1234567',
        'local-client-secret-do-not-use-elsewhere',
        'ctl\u0001-secret-value',
      ),
    ),
    API_KEY_SECRET: mostly(
      ['rules-api-key-secret-0002'],
      fc.constantFrom('tiny', 'local-api-key-secret-do-not-use-elsewhere', 'snow\u2603man-secret'),
    ),
    PINNED_API_KEY_SECRET: mostly(
      ['rules-pinned-secret-0003'],
      fc.constantFrom('local-pinned-api-key-secret-do-not-use-elsewhere'),
    ),
    REFERENCE_CONTROL_URL: mostly(['http://127.0.0.1:4010/__control/'], address('/__control/')),
    REQUEST_TIMEOUT_MS: mostly(
      ['1', '10000', '600000'],
      fc.oneof(
        fc.constantFrom('600001', '0', '1e3', '12ms', ' 15 ', '-5', '1.5', ''),
        fc.nat({ max: 700_000 }).map(String),
      ),
    ),
  },
  {
    requiredKeys: [
      'API_BASE_URL',
      'PETSTORE_BASE_URL',
      'CLIENT_ID',
      'CLIENT_SECRET',
      'API_KEY_SECRET',
      'PINNED_API_KEY_SECRET',
    ],
  },
);

function asDotenv(values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([name, value]) => `${name}='${value}'`)
    .join('\n');
}

let files = 0;
/** The suite's verdict, reading the variables from a .env file as a user would write it. */
function suiteAccepts(values: Record<string, string | undefined>): boolean {
  const path = join(dir, `env-${files++}`);
  writeFileSync(path, asDotenv({ ...CREDENTIALS, ...values }));
  return loadSettings({}, { envFile: path }).ok;
}

/** k6's verdict (the direct-run path): accepted, a rule's refusal, or the load guard's. */
function k6Reads(values: Record<string, string | undefined>): 'accepted' | 'guard' | 'refused' {
  try {
    readLoadConfig({ ...CREDENTIALS, ...values });
    return 'accepted';
  } catch (error) {
    if (!(error instanceof LoadConfigError)) throw error;
    return /^refusing to load /.test(error.message) ? 'guard' : 'refused';
  }
}

describe('the configuration rules both halves apply', () => {
  it('a .env one side accepts, the other accepts; k6 refuses more only by the load guard', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(variables, (values) => {
        const suite = suiteAccepts(values);
        const k6 = k6Reads(values);
        if (k6 === 'guard') {
          // The guard only: production without its switch, or a remote address for the local target.
          const target = (values.CONFORMANCE_TARGET ?? 'local').trim().toLowerCase();
          const production = !guard(
            { target, allowProductionWrites: values.ALLOW_PRODUCTION_WRITES === 'yes' },
            'load',
          ).allowed;
          expect(
            production || (target === 'local' && !onThisMachine(values.API_BASE_URL?.trim())),
            JSON.stringify(values),
          ).toBe(true);
          return;
        }
        expect(k6 === 'accepted', JSON.stringify(values)).toBe(suite);
        if (suite) accepted++;
        else refused++;
      }),
      { numRuns: 300, seed: 20261126 },
    );
    // Both outcomes are met often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it('reads addresses plainly, on both sides the same way', () => {
    expect(readBaseUrl('HTTPS://Staging.Example.COM:443/api', '/api/')).toEqual({
      ok: true,
      value: 'https://staging.example.com/api/',
    });
    expect(readBaseUrl('http://127.0.0.1:8080/petstore/v1/', '/v1')).toEqual({
      ok: true,
      value: 'http://127.0.0.1:8080/petstore/v1',
    });
    expect(readHttpUrl('http://127.0.0.1:8080')).toEqual({ ok: true, value: 'http://127.0.0.1:8080/' });
    for (const [value, kind] of [
      ['https://u:p@example.test/api/', 'credentials'],
      ['ftp://example.test/api/', 'scheme'],
      ['example.test/api/', 'not-absolute'],
      ['https://example.test/api/?t=1', 'query'],
      ['https://example.test/a b/api/', 'path'],
      ['https://example.test/x/../api/', 'path'],
      ['https://example.test/apis/', 'ending'],
    ] as const) {
      const read = readBaseUrl(value, '/api/');
      expect(read.ok ? undefined : read.problem.kind, value).toBe(kind);
    }
    expect(readTimeout('1e3').ok).toBe(false);
    expect(readTimeout('600000')).toEqual({ ok: true, value: 600_000 });
  });
});
