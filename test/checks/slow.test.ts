// CONFORMANCE_SLOW=0 against a remote target: the checks that would wait real time (a token's
// lifetime, a long Retry-After) end as skipped with the reason, and the rest still run. The real
// token-renewal and rate-limit suites run against a small target that issues short-lived tokens and
// limits every API-key request with Retry-After: 30.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import '../../suites/token-renewal.test.ts';
import '../../suites/rate-limit.test.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { provideTargetsByArea, remoteTarget } from '../config/provide-target.ts';

let server: Server;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (req.url?.endsWith('/v1/auth/token'))
      return json(200, { access_token: 'short-lived-token-1', expires_in: 5 });
    return json(
      429,
      { code: 'RATE_LIMITED', message: 'slow down', status_code: 429, handled: true, errors: [] },
      { 'retry-after': '30' },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const quick: TargetConfig = { ...remoteTarget('staging', false, origin), slow: false };
  provideTargetsByArea({ 'token-renewal': quick, 'rate-limit': quick });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('skips the checks that wait real time, saying why, and runs the others', ({ task }) => {
  const checks = new Map(
    task.file.tasks.flatMap((t) =>
      t.type === 'suite' ? t.tasks.map((c) => [c.meta.conformance?.checkId ?? c.name, c] as const) : [],
    ),
  );
  for (const id of ['REN-EXPIRED-CODE', 'REN-RENEW', 'REN-SHARED']) {
    const check = checks.get(id);
    expect(check?.result?.state, id).toBe('skip');
    expect(check?.meta.conformance?.skipReason, id).toMatch(/slow checks are off \(CONFORMANCE_SLOW=0\)/);
  }
  const wait = checks.get('RATE-AFTER-WAIT');
  expect(wait?.result?.state).toBe('skip');
  expect(wait?.meta.conformance?.skipReason).toMatch(/slow checks are off/);
  // The checks that need no waiting ran against the same answers.
  expect(checks.get('RATE-429')?.result?.state).toBe('pass');
  expect(checks.get('RATE-RETRY-AFTER')?.result?.state).toBe('pass');
  expect(received.filter((r) => r.startsWith('GET')).length, 'the burst stopped at the first 429').toBe(1);
});
