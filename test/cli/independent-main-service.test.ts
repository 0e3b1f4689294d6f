// The suites against a conformant server written apart from the reference server, with other
// choices wherever the spec is silent (test/support/independent-main-service.ts): every check of the
// areas it serves passes or is skipped with a reason; none fails. A failure here is a check that
// asks more than the spec shows.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResults } from '../../src/report/types.ts';
import {
  INDEPENDENT,
  type IndependentServer,
  startIndependentServer,
} from '../support/independent-main-service.ts';
import { runTs } from '../support/run-node.ts';

const AREAS = ['auth-token', 'api-key', 'bearer', 'customers-pagination', 'errors', 'token-renewal', 'user'];

let server: IndependentServer;
let dir: string;
let results: ConformanceResults;
let code: number | null;

beforeAll(async () => {
  server = await startIndependentServer();
  dir = await mkdtemp(join(tmpdir(), 'independent-'));
  const run = await runTs(
    'src/cli/conformance.ts',
    AREAS.flatMap((a) => ['--area', a]),
    {
      env: {
        ...process.env,
        CONFORMANCE_TARGET: 'staging',
        API_BASE_URL: server.apiBaseUrl,
        PETSTORE_BASE_URL: server.petstoreBaseUrl,
        CLIENT_ID: INDEPENDENT.clientId,
        CLIENT_SECRET: INDEPENDENT.clientSecret,
        API_KEY_ID: INDEPENDENT.apiKeyId,
        API_KEY_SECRET: INDEPENDENT.apiKeySecret,
        PINNED_API_KEY_ID: INDEPENDENT.pinnedApiKeyId,
        PINNED_API_KEY_SECRET: INDEPENDENT.pinnedApiKeySecret,
        EXPIRED_ACCESS_TOKEN: INDEPENDENT.expiredToken,
        REFERENCE_CONTROL_URL: '',
        DISABLED_FEATURE_ROUTE: '',
        CONFORMANCE_SLOW: '0',
        CONFORMANCE_STRICT: '1',
        CONFORMANCE_REPORTS_DIR: dir,
        NO_COLOR: '1',
      },
    },
  );
  code = run.code;
  const text = await readFile(join(dir, 'results.json'), 'utf8').catch(() => '');
  if (!text) throw new Error(`no results (exit ${run.code}): ${run.stderr.slice(-800)}`);
  results = JSON.parse(text) as ConformanceResults;
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an independently written conformant server', () => {
  it('passes every check that runs, strict (SHOULDs too), the invariants over every answer included', () => {
    const failed = results.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.reason}`);
    expect(failed).toEqual([]);
    expect(code).toBe(0);
    const ran = (prefix: string) =>
      results.checks.filter((c) => c.id.startsWith(prefix) && c.status === 'passed');
    expect(ran('INV-').length).toBeGreaterThan(10);
    expect(ran('KEY-NEAR-MISS-').length).toBe(1);
    expect(ran('PAG-BOUNDARIES').length).toBe(1);
    expect(ran('REN-EXPIRED-').length).toBeGreaterThanOrEqual(3);
  });
});
