// The rate-limit checks share the server's virtual clock with the other areas, which move it forward
// while they run side by side (the flag cache's 61 s). A burst the clock jumped through crossed the
// throwaway key's windows and proves nothing: RATE-429 then sends it again, and after three such
// bursts says inconclusive, never failed. Here the clock jumps after every GET /v1/customers (a
// proxy in front of the reference server moves it), so no burst stays in one window: before the
// probe looked at the clock, RATE-429 failed ("never refused in 10 requests") on a working limiter.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { stagingThrough, startForwardingProxy } from '../support/forwarding-proxy.ts';
import { runTs } from '../support/run-node.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback proxy that moves the server's clock a minute on after each customers answer. */
async function clockJumpingProxy(server: RunningReferenceServer): Promise<string> {
  const proxy = await startForwardingProxy(server.apiBaseUrl, {
    onAnswer: ({ url }) => {
      if (url.includes('/v1/customers')) server.control.advanceClock(61);
    },
  });
  closers.push(() => proxy.close());
  return proxy.origin;
}

it('RATE-429 and RATE-EXISTS are inconclusive, not failed, when the clock jumps through every burst', async () => {
  const server = await startReferenceServer({ control: true });
  closers.push(() => server.close());
  const origin = await clockJumpingProxy(server);
  const dir = mkdtempSync(join(tmpdir(), 'rate-clock-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  const run = await runTs('src/cli/conformance.ts', ['--area', 'rate-limit'], {
    env: {
      ...stagingThrough(origin, server.credentials, dir),
      REFERENCE_CONTROL_URL: server.controlUrl ?? '',
    },
  });
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    checks: { id: string; status: string; reason?: string }[];
  };
  for (const id of ['RATE-429', 'RATE-EXISTS']) {
    const check = results.checks.find((x) => x.id === id);
    expect(check?.status, run.stdout.slice(-2000)).toBe('skipped');
    expect(check?.reason).toMatch(/another check moved the server's clock during each of 3 bursts/);
  }
  expect(run.code, run.stdout.slice(-2000)).toBe(0);
}, 60_000);
