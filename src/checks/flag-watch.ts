// The real-time watch of the flag cache, for targets without a control API (staging): polls
// GET /v1/feature-flags (and, when DISABLED_FEATURE_ROUTE names one, that flag-guarded route) at a
// polite rate for two windows and a little more, in the background while the other checks run.
// The judging is the k6 probe's pure window logic (common/flag-window.ts); this module only
// polls, times and announces.

import { setTimeout as sleep } from 'node:timers/promises';
import {
  type FeatureState,
  type FlagWatchPlan,
  flagWatchPlan,
  judgeRenewalByRoute,
  type WatchTick,
} from '../../common/flag-window.ts';
import {
  type ApiClient,
  type ApiRequest,
  type ApiResponse,
  createApiClient,
  createRecorder,
  firstLine,
  type RecordedExchange,
} from '../client/index.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';
import { errorCode } from './assertions.ts';
import type { CheckContext } from './define.ts';
import { CheckFailed } from './failure.ts';

/** The spec's window; CONFORMANCE_FLAG_WINDOW changes it for tests against a short-window server. */
export const SPEC_FLAG_WINDOW_SECONDS = 60;

export function flagWindowSeconds(config: Pick<TargetConfig, 'flagWindowSeconds'>): number {
  return config.flagWindowSeconds ?? SPEC_FLAG_WINDOW_SECONDS;
}

export function watchPlanOf(config: Pick<TargetConfig, 'flagWindowSeconds'>): FlagWatchPlan {
  return flagWatchPlan(flagWindowSeconds(config) * 1000);
}

export interface FlagWatchResult {
  plan: FlagWatchPlan;
  /** Times are ms since the watch started. */
  ticks: WatchTick[];
  /** How long it really watched (longer than planned when a late switch was judged). */
  watchedMs: number;
  /** The flag-guarded route watched alongside, if any. */
  route: string | undefined;
  /** Requests that failed in transport (counted, not judged). */
  transportErrors: string[];
}

/** The time the watch reads and waits on: the real one, or a test's virtual one. */
export interface WatchClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: WatchClock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

export interface WatchOptions {
  /** Where the announcements go (the console by default). */
  announce?: (line: string) => void;
  /** Real time by default; self-tests move a virtual clock that the reference server shares. */
  clock?: WatchClock;
}

const FLAGS: ApiRequest = {
  service: 'main',
  method: 'GET',
  path: 'v1/feature-flags',
  auth: 'bearer',
  // A 429 is data for the watch (the polling is too fast), not something to wait out.
  retryOn429: false,
};

const secondsText = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function stateOf(res: ApiResponse): FeatureState {
  if (errorCode(res) === 'FEATURE_FLAG_DISABLED') return 'disabled';
  return res.status >= 200 && res.status < 300 ? 'enabled' : 'unknown';
}

/** Watches in real time; resolves when the plan's polls are done. Never throws for one bad poll. */
export async function watchFlags(
  client: ApiClient,
  config: TargetConfig,
  options: WatchOptions = {},
): Promise<FlagWatchResult> {
  const plan = watchPlanOf(config);
  const announce = options.announce ?? ((line: string) => console.info(line));
  const route = config.disabledFeatureRoute;
  const routePath = route?.replace(/^\//, '');
  let routeAuth: ApiRequest['auth'] = 'bearer';
  const ticks: WatchTick[] = [];
  const transportErrors: string[] = [];
  const clock = options.clock ?? REAL_CLOCK;
  const start = clock.now();
  const since = () => clock.now() - start;

  announce(
    `feature flags: watching GET /v1/feature-flags${route ? ` and GET ${route}` : ''} in real time ` +
      `for ${secondsText(plan.durationMs)} (window ${secondsText(plan.windowMs)}, a poll every ` +
      `${secondsText(plan.pollMs)}); FLG-WINDOW and FLG-RENEW wait for it while the other checks run`,
  );
  // Progress for long watches only, so a person sees the run is alive.
  const progressEveryMs = 30_000;
  let nextProgress = progressEveryMs;

  const timed = async (req: ApiRequest): Promise<{ res?: ApiResponse; sentAtMs: number; atMs: number }> => {
    const sentAtMs = since();
    try {
      const res = await client.request(req);
      return { res, sentAtMs, atMs: since() };
    } catch (error) {
      transportErrors.push(firstLine(error));
      return { sentAtMs, atMs: since() };
    }
  };

  // The schedule counts from the end of the first tick: a first answer held up (a busy target, a
  // busy machine) must not make the next polls bunch up and shorten the stretches judged.
  let zeroMs = 0;
  const poll = async (): Promise<WatchTick> => {
    const flags = await timed(FLAGS);
    const tick: WatchTick = {
      flags: {
        sentAtMs: flags.sentAtMs,
        atMs: flags.atMs,
        status: flags.res?.status ?? 0,
        body: flags.res ? flags.res.text : null,
      },
    };
    if (routePath) {
      let seen = await timed({ service: 'main', method: 'GET', path: routePath, auth: routeAuth });
      // A route that takes only the API key: its refusal of the bearer token says nothing of the flag.
      if (
        seen.res &&
        stateOf(seen.res) === 'unknown' &&
        [401, 403].includes(seen.res.status) &&
        routeAuth === 'bearer'
      ) {
        routeAuth = 'apiKey';
        seen = await timed({ service: 'main', method: 'GET', path: routePath, auth: routeAuth });
      }
      tick.route = {
        sentAtMs: seen.sentAtMs,
        atMs: seen.atMs,
        state: seen.res ? stateOf(seen.res) : 'unknown',
      };
    }
    return tick;
  };

  for (let i = 0; i < plan.polls; i++) {
    const due = zeroMs + i * plan.pollMs - since();
    if (due > 0) await clock.sleep(due);
    ticks.push(await poll());
    if (i === 0) zeroMs = since();
    if (since() >= nextProgress && i < plan.polls - 1) {
      announce(
        `feature flags: ${secondsText(since())} of ${secondsText(plan.durationMs)} watched, ` +
          `${changesSoFar(ticks)} change(s) of the flag data so far`,
      );
      nextProgress += progressEveryMs;
    }
  }

  // A switch of the guarded route seen late is worth judging: the watch goes on, by a window and
  // two polls at most, until the new state has lasted long enough to tell.
  if (switched(ticks) && undecided(ticks, plan)) {
    const extraMs = plan.windowMs + 2 * plan.pollMs;
    const until = since() + extraMs;
    announce(
      `feature flags: GET ${route} changed state late in the watch; watching up to ${secondsText(extraMs)} longer to judge it`,
    );
    while (since() < until && undecided(ticks, plan)) {
      await clock.sleep(plan.pollMs);
      ticks.push(await poll());
    }
  }
  if (!ticks.some((t) => t.flags.status >= 200 && t.flags.status < 300)) {
    const why = transportErrors[0] ?? `every poll answered ${ticks[0]?.flags.status ?? 'nothing'}`;
    // The target's failure to answer, not the suite's: a check failure like any other.
    throw new CheckFailed({
      message: `GET /v1/feature-flags never answered with data during the watch: ${why}`,
    });
  }
  return { plan, ticks, route, transportErrors, watchedMs: since() };
}

/** The guarded route was seen in both states. */
function switched(ticks: readonly WatchTick[]): boolean {
  const states = new Set(ticks.map((t) => t.route?.state).filter((state) => state && state !== 'unknown'));
  return states.size > 1;
}

/** The guarded route's switch cannot be judged yet (whatever the data changes say). */
function undecided(ticks: readonly WatchTick[], plan: FlagWatchPlan): boolean {
  return judgeRenewalByRoute(ticks, plan.windowMs, plan.toleranceMs) === undefined;
}

function changesSoFar(ticks: readonly WatchTick[]): number {
  let changes = 0;
  let last: string | null = null;
  for (const { flags } of ticks) {
    if (flags.status < 200 || flags.status >= 300 || flags.body === null) continue;
    if (last !== null && flags.body !== last) changes += 1;
    last = flags.body;
  }
  return changes;
}

/**
 * One watch per suite file, started by the first check that asks for it and awaited by the checks
 * that judge it; its exchanges are evidence of each of them.
 */
export function flagWatch(options: WatchOptions = {}): {
  start(config: TargetConfig): void;
  result(t: CheckContext): Promise<FlagWatchResult>;
} {
  let pending: Promise<{ value: FlagWatchResult; exchanges: RecordedExchange[] }> | undefined;
  let recorderExchanges: () => RecordedExchange[] = () => [];
  const start = (config: TargetConfig) => {
    if (pending) return;
    const recorder = createRecorder(secretValues(config));
    recorderExchanges = () => recorder.exchanges();
    pending = watchFlags(createApiClient(config, { recorder }), config, options).then((value) => ({
      value,
      exchanges: recorder.exchanges(),
    }));
    // Awaited later by the checks; until then a failure must not count as unhandled.
    pending.catch(() => undefined);
  };
  return {
    start,
    async result(t) {
      start(t.config);
      try {
        const { value, exchanges } = await (pending as NonNullable<typeof pending>);
        t.attach(exchanges);
        return value;
      } catch (error) {
        t.attach(recorderExchanges());
        throw error;
      }
    },
  };
}
