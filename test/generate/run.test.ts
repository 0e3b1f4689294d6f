// The generated checks against real reference servers: each new fault is caught with its rule and
// its shrunk request as curl; conformant servers that choose differently where the spec is silent
// pass; a replay with the same seed gives the very same failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlOf, type RecordedExchange } from '../../src/client/index.ts';
import { loadSettings, resolveTarget, type TargetConfig } from '../../src/config/index.ts';
import { mutationsOf } from '../../src/generate/mutations.ts';
import { type GeneratedRun, runGenerated, shares } from '../../src/generate/run.ts';
import { requestSchemas } from '../../src/generate/schema.ts';
import {
  CHOICES,
  type ReferenceServerOptions,
  type RunningReferenceServer,
  startReferenceServer,
} from '../../src/reference/index.ts';

const servers: RunningReferenceServer[] = [];

async function target(
  options: ReferenceServerOptions,
): Promise<{ config: TargetConfig; server: RunningReferenceServer }> {
  const loaded = loadSettings({ CONFORMANCE_TARGET: 'local' }, { envFile: false });
  if (!loaded.ok) throw new Error('local settings');
  const server = await startReferenceServer(options);
  servers.push(server);
  return { config: resolveTarget(loaded.settings, server), server };
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const everyMutation = (operationId: string, runs = 2) =>
  Object.fromEntries(mutationsOf(requestSchemas(operationId)).map((m) => [m.id, runs]));

function generated(
  config: TargetConfig,
  operationId: string,
  kind: 'valid' | 'invalid',
  seed = 7,
): Promise<GeneratedRun> {
  return runGenerated({
    kind,
    operationId,
    config,
    seed,
    runs: kind === 'valid' ? 25 : everyMutation(operationId),
  });
}

const OPERATIONS = [
  'createToken',
  'listCustomers',
  'getCurrentUser',
  'listFeatureFlags',
  'listPets',
  'createPets',
  'showPetById',
];

describe('each new fault is caught, with its rule', () => {
  it.each([
    ['page-zero-500', 'listCustomers', 'invalid', 'GNR-01', /page=0 answered 500/],
    ['page-not-integer-500', 'listCustomers', 'invalid', 'GNR-01', /page=abc answered 500/],
    ['malformed-json-500', 'createPets', 'invalid', 'GNR-01', /not valid JSON.*answered 500/],
    ['malformed-json-500', 'createToken', 'invalid', 'GNR-01', /answered 500/],
    // What a schema-based generator sends at the edges: one fault a class.
    [
      'pet-unknown-field-500',
      'createPets',
      'invalid',
      'GNR-01',
      /"x_unlisted_property":"value".*answered 500/,
    ],
    [
      'pet-id-unsafe-integer-500',
      'createPets',
      'invalid',
      'GNR-01',
      /id beyond 2\^53.*"id":9007199254740993.*answered 500/,
    ],
    ['limit-unsafe-integer-500', 'listPets', 'invalid', 'GNR-01', /limit=9007199254740993 answered 500/],
    ['limit-number-notation-500', 'listPets', 'invalid', 'GNR-01', /limit=1e2 answered 500/],
    ['pet-long-text-500', 'createPets', 'invalid', 'GNR-01', /name 10000 characters long.*answered 500/],
    ['pet-non-ascii-500', 'createPets', 'invalid', 'GNR-01', /name not ASCII.*answered 500/],
    ['token-empty-string-500', 'createToken', 'invalid', 'GNR-01', /client_id an empty string.*answered 500/],
    [
      'repeated-query-500',
      'listPets',
      'invalid',
      'GNR-01',
      /limit is given twice: GET \/pets\?limit=1&limit=2 answered 500/,
    ],
    ['pet-tag-refused', 'createPets', 'valid', 'GNR-02', /"tag":.*answered 400/],
    [
      'token-wrong-type-accepted',
      'createToken',
      'invalid',
      'GNR-03',
      /client_id sent as array.*accepted with 200/,
    ],
    ['pets-limit-not-a-number-accepted', 'listPets', 'invalid', 'GNR-03', /limit=abc accepted with 200/],
    ['nameless-pet-stored', 'createPets', 'invalid', 'GNR-03', /name left out.*accepted with 201/],
    [
      'pet-status-outside-enum-stored',
      'createPets',
      'invalid',
      'GNR-03',
      /"status":"adopted".*accepted with 201/,
    ],
    ['pet-tag-dropped', 'createPets', 'valid', 'GNR-04', /read back with tag missing/],
    ['pet-non-ascii-mangled', 'createPets', 'invalid', 'GNR-04', /name not ASCII.*read back with name "Zo\?/],
  ] as const)('%s: %s %s requests fail %s', async (fault, operationId, kind, rule, message) => {
    const { config } = await target({ faults: [fault] });
    const run = await generated(config, operationId, kind);
    expect(run.failure?.rule).toBe(rule);
    expect(run.failure?.message).toMatch(message);
    expect(run.failure?.message).not.toContain(config.credentials.clientSecret);
    expect(run.failure?.message).not.toContain(config.credentials.apiKeySecret);
    // The shrunk request's exchange is named, among the evidence, and its curl line hides no secret.
    const failing = run.failure?.exchange as RecordedExchange;
    expect(run.exchanges).toContain(failing);
    const command = curlOf(failing);
    expect(command).toMatch(/^curl -i /);
    expect(command).not.toContain(config.credentials.clientSecret);
    expect(command).not.toContain(config.credentials.apiKeySecret);
  });

  // The valid-request checks of the other operations, failed by faults of other areas' rules.
  it.each([
    [
      'token-missing-access-token',
      'createToken',
      /answered 200 that breaks the schema: \/access_token is required/,
    ],
    ['page-beyond-last-200', 'listCustomers', /page=4 answered 200, though page 4 is beyond the last page 3/],
    ['user-me-array', 'getCurrentUser', /answered 200 that breaks the schema/],
    ['flags-html', 'listFeatureFlags', /not JSON \(text\/html/],
    ['pet-status-outside-enum', 'listPets', /status must be one of/],
    ['pet-id-as-string', 'showPetById', /\/id must be integer/],
  ] as const)('%s: %s valid requests fail GNR-02', async (fault, operationId, message) => {
    const { config } = await target({ faults: [fault] });
    const run = await generated(config, operationId, 'valid');
    expect(run.failure?.rule).toBe('GNR-02');
    expect(run.failure?.message).toMatch(message);
  });

  it('a shrunk failure is the smallest: the tag is kept, optional fields that do not matter are not', async () => {
    const { config } = await target({ faults: ['pet-tag-refused'] });
    const run = await generated(config, 'createPets', 'valid', 11);
    expect(run.failure?.message).toMatch(/POST \/pets \{"id":\d+,"name":"Leo","tag":"[a-z]+"\} a valid/);
  });
});

// About a second per configuration idle; 20 s failed three of them at load 35.
describe('conformant servers pass, whatever they chose where the spec is silent', {
  timeout: 300_000,
}, () => {
  const CONFIGURATIONS: [string, ReferenceServerOptions][] = [
    ['defaults', {}],
    ['other choices (extra fields, 73 customers)', { extraFields: true, customers: 73 }],
    ['one page, SESSION_EXPIRED 403', { customers: 12, sessionExpiredStatus: 403 }],
    ['no customers', { customers: 0 }],
    // Every other answer of every open choice the generated requests touch.
    ...Object.entries(CHOICES).flatMap(([name, choice]) =>
      choice.values
        .slice(1)
        .map((value): [string, ReferenceServerOptions] => [
          `choice ${name}=${value}`,
          { choices: { [name]: value } },
        ]),
    ),
  ];
  it.each(CONFIGURATIONS)('%s', async (_name, options) => {
    const { config } = await target(options);
    for (const operationId of OPERATIONS) {
      for (const kind of ['valid', 'invalid'] as const) {
        if (kind === 'invalid' && mutationsOf(requestSchemas(operationId)).length === 0) continue;
        const run = await generated(config, operationId, kind, 3);
        expect(run.failure?.message, `${operationId} ${kind}`).toBeUndefined();
        expect(run.passed, `${operationId} ${kind}`).toBeGreaterThan(0);
      }
    }
  });

  it('a disabled feature proves nothing: inconclusive, not passed', async () => {
    const { config, server } = await target({});
    server.control.setFeature('customers', false);
    const run = await generated(config, 'listCustomers', 'invalid');
    expect(run.unavailable ?? '').toMatch(/total_pages could not be learned/);
    expect(run.passed).toBe(0);
  });
});

/** What a replay must repeat: the verdict and the request sent (not its timing). */
const same = (run: GeneratedRun) => ({
  rule: run.failure?.rule,
  message: run.failure?.message,
  request: run.failure?.exchange?.replay,
});

describe('replay', () => {
  let config: TargetConfig;
  let server: RunningReferenceServer;
  beforeAll(async () => {
    ({ config, server } = await target({ faults: ['pet-status-outside-enum-stored'] }));
  });

  it('the same seed against the same server reproduces the failure exactly', async () => {
    const first = await generated(config, 'createPets', 'invalid', 20261124);
    server.control.reset();
    const second = await generated(config, 'createPets', 'invalid', 20261124);
    expect(first.failure).toBeDefined();
    expect(same(second)).toEqual(same(first));
    expect(second.requests).toBe(first.requests);
  });

  it('valid requests, sent side by side, replay to the very same failure too', async () => {
    const { config: tagged, server: refusing } = await target({ faults: ['pet-tag-refused'] });
    const first = await generated(tagged, 'createPets', 'valid', 20261124);
    refusing.control.reset();
    const second = await generated(tagged, 'createPets', 'valid', 20261124);
    expect(first.failure?.rule).toBe('GNR-02');
    expect(same(second)).toEqual(same(first));
    expect(second.requests).toBe(first.requests);
  });
});

describe('shares', () => {
  it('splits runs into near-equal, non-empty shares that add up', () => {
    expect(shares(25, 4)).toEqual([7, 6, 6, 6]);
    expect(shares(3, 4)).toEqual([1, 1, 1]);
    expect(shares(8, 4)).toEqual([2, 2, 2, 2]);
    expect(shares(0, 4)).toEqual([]);
  });
});
