// The curl line of an exchange read back from results.json is the command the run printed: the
// report writer's redaction (a pass over every string of the results) must not edit the recorded
// request it is rendered from, whatever sits next to a secret.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { type ApiRequest, createApiClient, curlOf, type RecordedExchange } from '../../src/client/index.ts';
import { secretValues } from '../../src/config/index.ts';
import type { CheckResult } from '../../src/report/types.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { json, SECRETS, startServer, type TestServer, testConfig } from '../client/helpers.ts';
import { fixtureResults } from './fixture.ts';

let server: TestServer | undefined;
let dir: string | undefined;
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const REQUESTS: ApiRequest[] = [
  // A secret right after `client_secret=` and `access_token=` (form body, query).
  {
    service: 'main',
    method: 'POST',
    path: 'v1/form',
    query: { access_token: SECRETS.expiredToken },
    auth: 'none',
    rawBody: `client_id=me&client_secret=${SECRETS.clientSecret}`,
    contentType: 'application/x-www-form-urlencoded',
  },
  // Empty values under secret names: nothing to hide.
  { service: 'main', method: 'POST', path: 'v1/auth/token', auth: 'none', body: { client_secret: '' } },
  {
    service: 'main',
    method: 'POST',
    path: 'v1/form',
    auth: 'none',
    rawBody: 'client_secret=&access_token=',
    contentType: 'application/x-www-form-urlencoded',
  },
  // A generated request's made-up client_secret, kept for its command.
  {
    service: 'main',
    method: 'POST',
    path: 'v1/auth/token',
    auth: 'none',
    body: { client_id: 'drawn', client_secret: 'drawn-secret-value' },
    generated: true,
  },
  // The configured secret inside a JSON body.
  {
    service: 'main',
    method: 'POST',
    path: 'v1/auth/token',
    auth: 'none',
    body: { client_id: 'me', client_secret: SECRETS.clientSecret },
  },
];

describe('results.json keeps the request a curl line is rendered from', () => {
  it('renders the same command from the file as from the run', async () => {
    server = await startServer((_r, res) => json(res, 400, {}));
    const config = testConfig(server.origin);
    const client = createApiClient(config);
    for (const req of REQUESTS) await client.request(req);
    const exchanges = client.recorder.exchanges();
    const check: CheckResult = {
      id: 'X-1',
      title: 'replay',
      area: 'auth-token',
      rules: ['TOK-03'],
      level: 'MUST',
      status: 'failed',
      reason: 'failed',
      durationMs: 1,
      exchanges,
    };
    dir = await mkdtemp(join(tmpdir(), 'conformance-replay-'));
    const written = await writeReports(
      dir,
      fixtureResults({ checks: [check], coverage: new Map([['TOK-03', ['X-1']]]), areas: ['auth-token'] }),
      createSecretFilter(secretValues(config)),
    );
    const read = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as typeof written;
    const fromFile = (read.checks[0]?.exchanges ?? []) as RecordedExchange[];
    expect(fromFile.map(curlOf)).toEqual(exchanges.map(curlOf));
    expect(fromFile.map(curlOf).join('\n')).not.toContain('[REDACTED]');
    expect(curlOf(fromFile[3] as RecordedExchange)).toContain('"client_secret":"drawn-secret-value"');
  });
});
