// The reporter inside a real vitest run: a nested vitest runs a tiny suite of real check() calls
// against a local server through the ConformanceReporter, which writes junit.xml too.
// The four files must exist and be valid (results.json by its schema, junit.xml by an XML parser),
// hold no secret, and a second run must report what changed.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import type { TargetInfo } from '../../src/checks/meta.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { comparisonPointPath } from '../../src/report/comparison-point.ts';
import type { ConformanceResults } from '../../src/report/types.ts';
import ConformanceReporter from '../../src/report/vitest-reporter.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { conformanceTags } from '../../src/rules/tags.ts';
import { json, startServer, type TestServer } from '../client/helpers.ts';

const SECRETS = { client: 'rep-client-secret-9d8c7b', key: 'rep-api-key-secret-6a5b4c' };

let server: TestServer;
let target: TargetConfig;
let failShowing = true;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const secret = String(req.headers['x-api-key-secret'] ?? '');
    if (req.path.includes('page=abc')) {
      // An unkind server: a 5xx whose body echoes the secret and tries to close the page's script.
      json(res, 500, { message: `</script><b>boom</b> ${secret}` });
      return;
    }
    const data = failShowing ? [1, 2] : [1, 2, 3];
    json(res, 200, { pagination: { showing_items: 3 }, data, extra: {}, echo: secret });
  });
  target = {
    target: 'staging',
    apiBaseUrl: `${server.origin}/api/`,
    petstoreBaseUrl: `${server.origin}/petstore/v1`,
    credentials: {
      clientId: 'rep-client',
      clientSecret: SECRETS.client,
      apiKeyId: 'rep-key',
      apiKeySecret: SECRETS.key,
    },
    allowProductionWrites: false,
    requestTimeoutMs: 5_000,
    strict: false,
    slow: false,
  };
});
afterAll(() => server.close());

interface Run {
  dir: string;
  console: string;
  results: ConformanceResults;
  files: Map<string, string>;
}

async function run(dir: string, files: string[], options: { testNamePattern?: string; name?: string } = {}) {
  let printed = '';
  const targetInfo: TargetInfo = {
    name: target.target,
    apiBaseUrl: target.apiBaseUrl,
    petstoreBaseUrl: target.petstoreBaseUrl,
    strict: false,
  };
  const vitest = await createVitest(
    'test',
    {
      config: false,
      watch: false,
      // The fixture's server is unkind on purpose (it echoes a secret, its 500 has half an error
      // body): the invariants over its exchanges are test/checks/invariants.test.ts's subject.
      reporters: [
        new ConformanceReporter({ outputDir: dir, write: (t) => (printed += t), invariants: false }),
      ],
      ...(options.testNamePattern ? { testNamePattern: options.testNamePattern } : {}),
    },
    {
      test: {
        name: options.name ?? 'conformance',
        include: files,
        tags: conformanceTags(),
        provide: { target, targetInfo },
      },
    },
  );
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  const texts = new Map<string, string>();
  for (const f of await readdir(dir)) if (f !== 'history') texts.set(f, await readFile(join(dir, f), 'utf8'));
  const resultsText = texts.get('results.json');
  return {
    dir,
    console: printed,
    results: resultsText ? (JSON.parse(resultsText) as ConformanceResults) : undefined,
    files: texts,
  };
}

const FIXTURE = 'test/report/fixtures/customers-pagination.fixture.ts';
const BROKEN = 'test/report/fixtures/broken.fixture.ts';
const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-report-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const schema = JSON.parse(await readFile('schemas/results.schema.json', 'utf8'));
const ajv = new Ajv2020.default({ allErrors: true, strict: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

describe('ConformanceReporter in a vitest run', () => {
  let first: Run;
  let second: Run;
  let runDir: string;

  beforeAll(async () => {
    const dir = await tempDir();
    runDir = dir;
    failShowing = true;
    first = (await run(dir, [FIXTURE])) as Run;
    failShowing = false;
    // The first run covered one area: no comparison point. One that covered every area is planted
    // as the target's last complete run, for the second to compare with.
    const complete = { ...first.results, scope: { areas: [...AREAS], filtered: false } };
    const point = comparisonPointPath(dir, complete.target);
    await mkdir(dirname(point), { recursive: true });
    await writeFile(point, JSON.stringify(complete));
    // The second run: the showing check now passes; one check is left out by a name filter.
    second = (await run(dir, [FIXTURE], { testNamePattern: '^(?!.*FX-OTHER)' })) as Run;
  }, 60_000);

  it('writes the four reports', () => {
    // (dot-files: the run's own bookkeeping, such as a lock; run.har: the traffic CI gets by default)
    expect([...first.files.keys()].filter((f) => !f.startsWith('.') && f !== 'run.har').sort()).toEqual([
      'index.html',
      'junit.xml',
      'results.json',
      'summary.md',
    ]);
  });

  it('results.json is valid by its schema and says what each check did', () => {
    expect(validate(first.results) ? [] : validate.errors).toEqual([]);
    const byId = new Map(first.results.checks.map((c) => [c.id, c]));
    expect(byId.get('FX-ENVELOPE')?.status).toBe('passed');
    expect(byId.get('FX-SHOWING')).toMatchObject({ status: 'failed', level: 'MUST', rules: ['PAG-03'] });
    expect(byId.get('FX-SHOWING')?.reason).toContain('showing_items equals the items of the page');
    expect(byId.get('FX-SHOWING')?.exchanges[0]).toMatchObject({ method: 'GET', status: 200 });
    expect(byId.get('FX-MALFORMED')).toMatchObject({ status: 'failed', nonStrict: true, level: 'ADVICE' });
    expect(byId.get('FX-WINDOW')?.status).toBe('skipped');
    expect(byId.get('FX-WINDOW')?.reason).toContain('control API');
    expect(first.results.target).toEqual({
      name: 'staging',
      apiBaseUrl: target.apiBaseUrl,
      petstoreBaseUrl: target.petstoreBaseUrl,
    });
    expect(first.results.exitCode).toBe(1);
    expect(first.results.scope).toEqual({ areas: ['customers-pagination'], filtered: false });
    expect(first.results.rules.find((r) => r.id === 'PAG-02')?.status).toBe('uncovered');
  });

  it('junit.xml parses, one testcase per check, grouped by area, skips and advice failures shown', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      first.files.get('junit.xml') ?? '',
    );
    const suite = xml.testsuites.testsuite;
    const cases = [suite.testcase].flat() as {
      classname: string;
      name: string;
      failure?: { type: string; message: string; '#text': string };
      skipped?: { message: string };
    }[];
    expect(cases).toHaveLength(5);
    expect(suite.name).toBe('customers-pagination');
    for (const c of cases) expect(c.classname).toBe('customers-pagination');
    const named = (id: string) => cases.find((c) => c.name.startsWith(`${id} `));
    expect(named('FX-SHOWING')?.name).toBe('FX-SHOWING showing_items counts the page — ünïcödé ✓ [PAG-03]');
    expect(named('FX-SHOWING')?.failure?.type).toBe('MUST');
    // The failing exchange and a command to reproduce it, with no secret in it.
    expect(named('FX-SHOWING')?.failure?.['#text']).toContain('reproduce with: curl');
    expect(named('FX-SHOWING')?.failure?.['#text']).toContain('"$API_KEY_SECRET"');
    expect(named('FX-MALFORMED')?.failure).toMatchObject({ type: 'ADVICE' });
    expect(named('FX-MALFORMED')?.failure?.message).toMatch(/^advice, not the spec/);
    expect(named('FX-ENVELOPE')?.failure).toBeUndefined();
    expect(named('FX-WINDOW')?.skipped?.message).toContain('control API');
    expect(Number(suite.failures)).toBe(2);
    expect(Number(suite.skipped)).toBe(1);
  });

  it('prints the table by area, the report paths and the exit code', () => {
    expect(first.console).toMatch(/customers-pagination\s+2\s+2\s+1\s+1/);
    // The reports folder is outside the working directory here, so it is named whole, not as ../../
    expect(first.console).toContain(`reports: ${join(runDir, 'results.json')}, `);
    expect(first.console).toContain('exit code 1 (a check failed)');
  });

  it('no file and no console line holds a configured secret, in any form', () => {
    for (const run of [first, second]) {
      for (const [name, text] of [...run.files, ['console', run.console] as const]) {
        for (const secret of Object.values(SECRETS)) {
          expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
          expect(text.includes(encodeURIComponent(secret)), `${secret} in ${name}`).toBe(false);
        }
      }
    }
  });

  it('a filtered run reports only what ran, and what changed since the previous run', () => {
    const ids = second.results.checks.map((c) => c.id);
    expect(ids).not.toContain('FX-OTHER');
    // Left out by the filter: not a skipped test case either.
    expect(second.files.get('junit.xml')).not.toContain('FX-OTHER');
    expect(second.results.totals.checks.skipped).toBe(1);
    expect(second.results.scope.filtered).toBe(true);
    expect(second.results.rules.map((r) => r.id)).not.toContain('PAG-07');
    expect(second.results.history?.changes).toEqual([
      {
        id: 'FX-SHOWING',
        title: expect.any(String),
        area: 'customers-pagination',
        from: 'failed',
        to: 'passed',
      },
    ]);
    expect(second.files.get('summary.md')).toContain('Changed since the last complete run');
    expect(second.files.get('previous-results.json')).toContain('"FX-OTHER"');
    expect(second.results.exitCode).toBe(0);
  });
});

describe('run-level problems and other projects', () => {
  it('a suite that cannot load is a run problem: exit code 2, named in every report', async () => {
    const got = await run(await tempDir(), [BROKEN, FIXTURE]);
    expect(got.results?.exitCode).toBe(2);
    expect(got.results?.problems.join('\n')).toMatch(/broken\.fixture\.ts could not run: .*NOPE-99/);
    expect(got.files.get('summary.md')).toContain('## Run problems');
    expect(got.console).toContain('exit code 2');
  }, 30_000);

  it('a run of the self-tests alone writes no conformance report', async () => {
    const dir = await tempDir();
    const got = await run(dir, [FIXTURE], { name: 'self' });
    expect(got.results).toBeUndefined();
    expect([...got.files.keys()].filter((f) => f !== 'junit.xml')).toEqual([]);
    expect(got.console).toBe('');
  }, 30_000);
});
