// The watcher itself (src/checks/flag-watch.ts), called directly against the reference server
// without its control API and with a 1 s flag window: its plan, its announcements, and the
// extension that lets a late switch of the guarded route be judged.
import { describe, expect, it } from 'vitest';
import { analyseFlagPolls, judgeRenewal, judgeWindow } from '../../common/flag-window.ts';
import { flagWatch, type WatchClock, watchFlags, watchPlanOf } from '../../src/checks/flag-watch.ts';
import { createApiClient } from '../../src/client/index.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { stagingConfigOf } from '../support/target-config.ts';

function targetOf(server: RunningReferenceServer, flagWindowSeconds?: number): TargetConfig {
  return stagingConfigOf(server, {
    disabledFeatureRoute: '/v1/reports',
    slow: true,
    ...(flagWindowSeconds ? { flagWindowSeconds } : {}),
  });
}

describe('the watch plan', () => {
  it('takes the spec 60 s window unless the configuration names another', () => {
    const config = { flagWindowSeconds: undefined };
    expect(watchPlanOf(config)).toMatchObject({ windowMs: 60_000, durationMs: 160_000, pollMs: 10_000 });
    expect(watchPlanOf({ flagWindowSeconds: 1 })).toMatchObject({ windowMs: 1000, polls: 17 });
  });
});

/**
 * A virtual clock the watch and the reference server share: the watch's waits move both, so a
 * watch of the spec's 60 s window takes a moment and no busy machine can stretch its stretches.
 * `at` runs once the watch has waited past a moment (ms since its start).
 */
function sharedClock(server: RunningReferenceServer, at?: { afterMs: number; run: () => void }): WatchClock {
  let offset = 0;
  let start: number | undefined;
  let done = false;
  const now = () => Date.now() + offset;
  return {
    now: () => {
      start ??= now();
      return now();
    },
    async sleep(ms) {
      offset += ms;
      server.control.advanceClock(ms / 1000);
      if (at && !done && start !== undefined && now() - start >= at.afterMs) {
        done = true;
        at.run();
      }
    },
  };
}

describe('watchFlags, on a virtual clock the server shares (the spec window of 60 s)', {
  timeout: 60_000,
}, () => {
  const plan = watchPlanOf({});
  const watch = async (
    options: Parameters<typeof startReferenceServer>[0],
    flip?: 'late' | 'after a window',
  ) => {
    const server = await startReferenceServer({ flagWindowSeconds: 60, ...options });
    const lines: string[] = [];
    try {
      const config = targetOf(server);
      const afterMs = flip === 'late' ? plan.durationMs - plan.pollMs : plan.windowMs + 2 * plan.pollMs;
      const clock = sharedClock(
        server,
        flip ? { afterMs, run: () => server.control.setFeature('reports', false) } : undefined,
      );
      const result = await watchFlags(createApiClient(config), config, {
        announce: (l) => lines.push(l),
        clock,
      });
      const analysis = analyseFlagPolls([result.ticks.map((t) => t.flags)], {
        windowMs: plan.windowMs,
        toleranceMs: plan.toleranceMs,
      });
      return {
        result,
        lines,
        window: judgeWindow(analysis, plan.windowMs).outcome,
        renewal: judgeRenewal(result.ticks, plan.windowMs, plan.toleranceMs).outcome,
      };
    } finally {
      await server.close();
    }
  };

  it('announces the wait, polls both routes every tick, and goes on to judge a late switch', async () => {
    const { result, lines, renewal } = await watch({ faults: ['flags-never-renewed'] }, 'late');
    expect(lines[0]).toBe(
      'feature flags: watching GET /v1/feature-flags and GET /v1/reports in real time for 160 s ' +
        '(window 60 s, a poll every 10 s); FLG-WINDOW and FLG-RENEW wait for it while the other checks run',
    );
    expect(lines.at(-1)).toMatch(
      /GET \/v1\/reports changed state late in the watch; watching up to 80 s longer/,
    );
    expect(result.ticks.length).toBeGreaterThan(plan.polls);
    expect(result.watchedMs).toBeGreaterThan(plan.durationMs);
    expect(result.ticks.every((t) => t.flags.status === 200 && t.route !== undefined)).toBe(true);
    expect(renewal).toBe('failed');
  });

  it('fails the renewal of a server that never renews once a flag changed', async () => {
    expect((await watch({ faults: ['flags-never-renewed'] }, 'after a window')).renewal).toBe('failed');
  });

  it('fails the window of a server that does not cache, its flags changing every 36 s', async () => {
    expect((await watch({ faults: ['flags-not-cached'], flagChangeSeconds: 36 })).window).toBe('failed');
  });

  it('passes both for a conformant server, its flags changing every 36 s and a feature switched', async () => {
    const { window, renewal } = await watch({ flagChangeSeconds: 36 }, 'after a window');
    expect([window, renewal]).toEqual(['passed', 'passed']);
  });

  it('is inconclusive, never passed, when nothing changes', async () => {
    const { window, renewal } = await watch({});
    expect([window, renewal]).toEqual(['inconclusive', 'inconclusive']);
  });
});

describe('watchFlags', { timeout: 30_000 }, () => {
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
