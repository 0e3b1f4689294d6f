// The real suites that write or load, loaded against production with a target that counts every
// request: the pet suite (the demo interface, and POST /pets) sends nothing even with
// ALLOW_PRODUCTION_WRITES=yes, the rate-limit suite (a burst: load) sends nothing without it, and
// each of their checks is reported skipped with the guard's reason. A check added to either suite
// without its guard makes this test fail.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import '../../suites/pets.test.ts';
import '../../suites/rate-limit.test.ts';
import { guard, type TargetConfig } from '../../src/config/index.ts';
import { provideTargetsByArea, remoteTarget } from './provide-target.ts';

let server: Server;
const received: string[] = [];
let petsTarget: TargetConfig;
let rateLimitTarget: TargetConfig;

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  petsTarget = remoteTarget('production', true, origin);
  rateLimitTarget = remoteTarget('production', false, origin);
  // Each suite meets the production setting that should stop it (the checks of both run at once).
  provideTargetsByArea({ pets: petsTarget, 'rate-limit': rateLimitTarget });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('skips every pet and rate-limit check on production, sending nothing', ({ task }) => {
  const reasons: Record<string, string> = {};
  for (const [area, config, action] of [
    ['pets', () => petsTarget, 'petstore'],
    ['rate-limit', () => rateLimitTarget, 'load'],
  ] as const) {
    const verdict = guard(config(), action);
    if (verdict.allowed) throw new Error(`the guard allows ${action} on this production target`);
    reasons[area] = verdict.reason;
  }

  const checks = task.file.tasks.flatMap((t) =>
    t.type === 'suite' && t.name in reasons
      ? t.tasks.map((c) => ({ area: t.name, name: c.name, state: c.result?.state, meta: c.meta.conformance }))
      : [],
  );
  expect(checks.filter((c) => c.area === 'pets').length, 'pet checks found').toBeGreaterThan(5);
  expect(checks.filter((c) => c.area === 'rate-limit').length, 'rate-limit checks found').toBeGreaterThan(2);
  for (const c of checks) {
    expect({ name: c.name, state: c.state, skipReason: c.meta?.skipReason }).toEqual({
      name: c.name,
      state: 'skip',
      skipReason: reasons[c.area],
    });
  }
  expect(received, 'requests that reached production').toEqual([]);
});
