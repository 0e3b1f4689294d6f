// The watcher itself (src/checks/flag-watch.ts), called directly against the reference server
// without its control API and with a 1 s flag window: its plan, its announcements, and the
// extension that lets a late switch of the guarded route be judged.
import { describe, expect, it } from 'vitest';
import { judgeRenewal } from '../../common/flag-window.ts';
import { flagWatch, watchFlags, watchPlanOf } from '../../src/checks/flag-watch.ts';
import { createApiClient } from '../../src/client/index.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';

function targetOf(server: RunningReferenceServer, flagWindowSeconds?: number): TargetConfig {
  const c = server.credentials;
  return {
    target: 'staging',
    apiBaseUrl: server.apiBaseUrl,
    petstoreBaseUrl: server.petstoreBaseUrl,
    credentials: {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      apiKeyId: c.apiKeyId,
      apiKeySecret: c.apiKeySecret,
    },
    disabledFeatureRoute: '/v1/reports',
    allowProductionWrites: false,
    requestTimeoutMs: 5_000,
    strict: false,
    slow: true,
    ...(flagWindowSeconds ? { flagWindowSeconds } : {}),
  };
}

describe('the watch plan', () => {
  it('takes the spec 60 s window unless the configuration names another', () => {
    const config = { flagWindowSeconds: undefined };
    expect(watchPlanOf(config)).toMatchObject({ windowMs: 60_000, durationMs: 160_000, pollMs: 10_000 });
    expect(watchPlanOf({ flagWindowSeconds: 1 })).toMatchObject({ windowMs: 1000, polls: 17 });
  });
});

describe('watchFlags', { timeout: 30_000 }, () => {
  it('announces the wait, polls both routes every tick, and goes on to judge a late switch', async () => {
    const server = await startReferenceServer({ flagWindowSeconds: 1, faults: ['flags-never-renewed'] });
    const lines: string[] = [];
    // Switched when the planned watch is nearly over: the disabled stretch is too short to judge.
    const plan = watchPlanOf({ flagWindowSeconds: 1 });
    const timer = setTimeout(
      () => server.control.setFeature('reports', false),
      plan.durationMs - plan.pollMs,
    );
    try {
      const config = targetOf(server, 1);
      const result = await watchFlags(createApiClient(config), config, { announce: (l) => lines.push(l) });
      expect(lines[0]).toBe(
        'feature flags: watching GET /v1/feature-flags and GET /v1/reports in real time for 2.7 s ' +
          '(window 1 s, a poll every 0.2 s); FLG-WINDOW and FLG-RENEW wait for it while the other checks run',
      );
      expect(lines[1]).toMatch(
        /GET \/v1\/reports changed state late in the watch; watching up to 1\.3 s longer/,
      );
      expect(result.ticks.length).toBeGreaterThan(plan.polls);
      expect(result.watchedMs).toBeGreaterThan(plan.durationMs);
      expect(result.ticks.every((t) => t.flags.status === 200 && t.route !== undefined)).toBe(true);
      expect(judgeRenewal(result.ticks, plan.windowMs, plan.toleranceMs).outcome).toBe('failed');
    } finally {
      clearTimeout(timer);
      await server.close();
    }
  });

  it('says why when the flags never answer with data', async () => {
    const server = await startReferenceServer({ flagWindowSeconds: 0.3, faults: ['token-not-accepted'] });
    try {
      const config = targetOf(server, 0.3);
      await expect(
        watchFlags(createApiClient(config), config, { announce: () => undefined }),
      ).rejects.toThrow(
        /^GET \/v1\/feature-flags never answered with data during the watch: every poll answered 401$/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('flagWatch', { timeout: 30_000 }, () => {
  it('runs one watch for all the checks that ask, and gives each its exchanges as evidence', async () => {
    const server = await startReferenceServer({ flagWindowSeconds: 0.3 });
    try {
      const config = targetOf(server, 0.3);
      const watch = flagWatch({ announce: () => undefined });
      const attached: unknown[][] = [[], []];
      const context = (i: number) =>
        ({ config, attach: (e: unknown[]) => attached[i]?.push(...e) }) as unknown as Parameters<
          ReturnType<typeof flagWatch>['result']
        >[0];
      watch.start(config);
      const [a, b] = await Promise.all([watch.result(context(0)), watch.result(context(1))]);
      expect(a).toBe(b);
      // One flags and one route request per tick, recorded once and attached to both checks.
      expect(attached[0]).toHaveLength(a.ticks.length * 2 + 1);
      expect(attached[1]).toEqual(attached[0]);
    } finally {
      await server.close();
    }
  });
});
