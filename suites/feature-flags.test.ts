// GET /v1/feature-flags (cached 60 s) and the 503 FEATURE_FLAG_DISABLED of a disabled feature.
// With the reference server's control API the cache checks flip a flag and move the clock. Without
// it (staging) and with slow checks on, they judge a real-time watch of the flags (two windows and a
// little more, started by the first check, running while the others do); with slow checks off they
// are skipped with the reason. DISABLED_FEATURE_ROUTE names a disabled route.

import {
  analyseFlagPolls,
  flagWatchPlan,
  judgeRenewal,
  judgeWindow,
  type WatchVerdict,
} from '../common/flag-window.ts';
import {
  errorCode,
  expectErrorBody,
  expectJsonBody,
  expectStatus,
  expectValid,
} from '../src/checks/assertions.ts';
import { area, type CheckContext, check } from '../src/checks/define.ts';
import { expect } from '../src/checks/expect.ts';
import { type FlagWatchResult, flagWatch, flagWindowSeconds, watchPlanOf } from '../src/checks/flag-watch.ts';
import { available, shared, Unavailable } from '../src/checks/shared.ts';
import type { ApiClient, ApiRequest, ApiResponse } from '../src/client/index.ts';
import type { TargetConfig } from '../src/config/index.ts';
import { validateResponse } from '../src/contract/index.ts';

const FLAGS: ApiRequest = { service: 'main', method: 'GET', path: 'v1/feature-flags', auth: 'bearer' };
// Features of the reference server: one that guards no route (safe to flip while other suites
// run) and the one that guards GET /v1/reports.
const PROBE_FEATURE = 'new-dashboard';
const GUARDED = { feature: 'reports', route: '/v1/reports' };
// A backstop only (every request has its own timeout): the watch at the longest window
// CONFORMANCE_FLAG_WINDOW allows (300 s), plus ten minutes.
const WATCH_TIMEOUT_MS = flagWatchPlan(300_000).durationMs + 600_000;

const watch = flagWatch();

/** Without control, the cache can only be judged by watching it in real time. */
const watchesInRealTime = (config: TargetConfig) => !config.controlUrl && config.slow;

/** How to turn an inconclusive watch into a verdict, for the skip reason. */
const MAKE_CONCLUSIVE =
  'to make it conclusive, switch a flag in this environment during the run (with DISABLED_FEATURE_ROUTE ' +
  'naming the route it guards), or run the k6 probe for longer (npm run load:flag-cache with FLAG_DURATION=600)';

/** The watch's verdict as the check's outcome: a failure, a pass, or a skip saying why. */
function settle(t: CheckContext, id: string, result: FlagWatchResult, verdict: WatchVerdict): void {
  const watched = `watched ${Math.round(result.watchedMs / 1000)} s in real time`;
  // A pass has no reason in the report: the console says what it rests on.
  if (verdict.outcome === 'passed') console.info(`feature flags: ${id} passed: ${verdict.detail}`);
  if (verdict.outcome === 'failed') expect.fail(`${verdict.detail} (${watched})`);
  if (verdict.outcome === 'inconclusive')
    t.skip(`inconclusive: ${verdict.detail} (${watched}); ${MAKE_CONCLUSIVE}`);
}

/** Skips a cache check that would have to wait in real time while slow checks are off. */
function realTimeOrSkip(t: CheckContext): Promise<FlagWatchResult> {
  if (!t.slow) {
    const seconds = Math.round(watchPlanOf(t.config).durationMs / 1000);
    t.skip(
      `the target offers no control API, and watching the flag cache in real time (${seconds} s) is a ` +
        'slow check: slow checks are off (CONFORMANCE_SLOW=0)',
    );
  }
  return watch.result(t);
}

async function flags(client: ApiClient): Promise<unknown> {
  const res = await client.request(FLAGS);
  expectStatus(res, 200, 'GET /v1/feature-flags');
  return expectJsonBody(res, 'the feature flags');
}

function getRoute(client: ApiClient, route: string, auth: ApiRequest['auth']): Promise<ApiResponse> {
  return client.request({ service: 'main', method: 'GET', path: route.replace(/^\//, ''), auth });
}

// The route's feature as a person would name it: /v1/reports -> "report".
function featureWord(route: string): string {
  const last = route.split('/').filter(Boolean).at(-1) ?? route;
  return last.replace(/s$/i, '').toLowerCase();
}

/**
 * The names GET /v1/feature-flags gives the features it lists as off, whatever its shape (not
 * shown): a key whose value is false ({"reports": false}), or the strings of an entry that holds a
 * false ({"name": "reports", "enabled": false}). A feature may be named apart from its route.
 */
function offFeatureNames(flags: unknown): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      if (entries.some(([, v]) => v === false)) {
        for (const [k, v] of entries) {
          if (v === false) names.push(k);
          else if (typeof v === 'string') names.push(v);
        }
      }
      for (const [, v] of entries) visit(v);
    }
  };
  visit(flags);
  // A key such as "enabled" or "active" names the state, not a feature.
  return [...new Set(names.map((n) => n.toLowerCase()))].filter(
    (n) => n.length >= 3 && !/^(enabled|active|on|state|value|status)$/.test(n),
  );
}

const disabled = shared(async (client, config, targetControl) => {
  const fromConfig = config.disabledFeatureRoute;
  if (!fromConfig && !targetControl) {
    return new Unavailable('no DISABLED_FEATURE_ROUTE configured and the target offers no control API');
  }
  const route = fromConfig ?? GUARDED.route;
  const control = fromConfig ? undefined : targetControl;
  await control?.setFeature(GUARDED.feature, false);
  try {
    let res = await getRoute(client, route, 'bearer');
    // A route may take only the API key: an auth refusal is not the answer we are after.
    if (errorCode(res) !== 'FEATURE_FLAG_DISABLED' && (res.status === 401 || res.status === 403)) {
      res = await getRoute(client, route, 'apiKey');
    }
    return { route, word: featureWord(route), res };
  } finally {
    await control?.setFeature(GUARDED.feature, true);
  }
});

area('feature-flags', () => {
  check(
    { id: 'FLG-READ', title: 'GET /v1/feature-flags returns the flags as JSON', rules: ['FLG-01'] },
    async (t) => {
      // The real-time watch starts with the area, so its wait overlaps everything else.
      if (watchesInRealTime(t.config)) watch.start(t.config);
      const res = await t.client.request(FLAGS);
      expectStatus(res, 200, 'GET /v1/feature-flags');
      expectValid(
        validateResponse('listFeatureFlags', 200, expectJsonBody(res, 'the feature flags')),
        'the flags',
      );
    },
  );

  check(
    {
      id: 'FLG-WINDOW',
      title: 'calls within 60 s return identical data, even after a flag changed',
      rules: ['FLG-02'],
      // The flag cache is per user, and every check is the same user: the cache checks run alone.
      sequential: true,
      timeoutMs: WATCH_TIMEOUT_MS,
    },
    async (t) => {
      if (!t.config.controlUrl) {
        // Two calls a moment apart prove nothing: any server passes them, cached or not.
        const result = await realTimeOrSkip(t);
        const window = result.plan.windowMs;
        const analysis = analyseFlagPolls([result.ticks.map((tick) => tick.flags)], {
          windowMs: window,
          toleranceMs: result.plan.toleranceMs,
        });
        settle(t, 'FLG-WINDOW', result, judgeWindow(analysis, window));
        return;
      }
      const control = t.needControl('to flip a flag');
      const before = await flags(t.client);
      await control.setFeature(PROBE_FEATURE, false);
      try {
        const after = await flags(t.client);
        expect(after, 'flags within the window').toEqual(before);
      } finally {
        await control.setFeature(PROBE_FEATURE, true);
      }
    },
  );

  check(
    {
      id: 'FLG-RENEW',
      title: 'flag data is renewed once 60 s have passed',
      rules: ['FLG-03'],
      sequential: true,
      timeoutMs: WATCH_TIMEOUT_MS,
    },
    async (t) => {
      if (!t.config.controlUrl) {
        const result = await realTimeOrSkip(t);
        const verdict = judgeRenewal(
          result.ticks,
          result.plan.windowMs,
          result.plan.toleranceMs,
          result.route,
        );
        settle(t, 'FLG-RENEW', result, verdict);
        return;
      }
      const control = t.needControl('changing a flag and moving the clock is needed to observe renewal');
      const WINDOW_SECONDS = flagWindowSeconds(t.config);
      // Start from fresh data: the cache may hold what an earlier check saw mid-change.
      await control.advanceClock(WINDOW_SECONDS + 1);
      const before = await flags(t.client);
      await control.setFeature(PROBE_FEATURE, false);
      try {
        await control.advanceClock(WINDOW_SECONDS + 1);
        const renewed = await flags(t.client);
        expect(renewed, `flags ${WINDOW_SECONDS + 1} s after a flag changed`).not.toEqual(before);
      } finally {
        await control.setFeature(PROBE_FEATURE, true);
        await control.advanceClock(WINDOW_SECONDS + 1);
      }
      expect(await flags(t.client), 'flags once the change is undone and the window passed').toEqual(before);
    },
  );

  check(
    {
      id: 'FLG-DISABLED-STATUS',
      title: 'an operation whose feature is disabled answers 503',
      rules: ['FLG-04'],
    },
    async (t) => {
      const result = available(t, await disabled(t));
      expectStatus(result.res, 503, `GET ${result.route} with its feature disabled`);
    },
  );

  check(
    {
      id: 'FLG-DISABLED-CODE',
      title: 'the disabled feature error has code FEATURE_FLAG_DISABLED and status_code 503',
      rules: ['FLG-05'],
    },
    async (t) => {
      const result = available(t, await disabled(t));
      const body = expectErrorBody(result.res, `GET ${result.route}`);
      expect(body.code, 'code').toBe('FEATURE_FLAG_DISABLED');
      expect(body.status_code, 'status_code').toBe(503);
    },
  );

  check(
    {
      id: 'FLG-DISABLED-MESSAGE',
      title: 'the disabled feature error names the feature',
      rules: ['FLG-06'],
    },
    async (t) => {
      const result = available(t, await disabled(t));
      const message = String(expectErrorBody(result.res, `GET ${result.route}`).message);
      const lower = message.toLowerCase();
      if (lower.includes(result.word)) return;
      // The route's word is absent: the feature may have a name of its own, which the flags list
      // shows as off (the spec: "every feature and its current state").
      const off = offFeatureNames(await flags(t.client));
      expect(
        off.filter((name) => lower.includes(name)),
        `message "${message}" names the feature ("${result.word}" from the route, or a feature the flags list as off: ${off.join(', ') || 'none'})`,
      ).not.toEqual([]);
    },
  );
});
