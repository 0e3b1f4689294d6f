// Flag-cache probe: several virtual users poll GET /v1/feature-flags (a bearer token each) for
// longer than the cache window (FLAG_WINDOW: the spec's 60 s unless told otherwise) and check the
// data never changes within one window of a renewal.
// Counts violations (threshold: none) and 429s (the polling rate stays below the limiter).
// With REFERENCE_CONTROL_URL (the local reference server) flags are switched at every tick so
// renewals bring new data, and with FLAG_TIME_LAPSE the server's clock jumps at every tick so a
// short run covers several windows. Each poll is placed on the clock the cache runs on by
// measurement (the reference server's clock read before and after it, or k6's own send and answer
// times), never by a model: a starved k6 then places its changes widely and the run says it cannot
// tell, instead of failing a working cache or passing a broken one (PAIR_SPREAD_FRACTION).
//   k6 run load/flag-cache.ts   (or npm run load:flag-cache; variables in docs/load.md)
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { FlagWindowTracker, spreadOf } from '../common/flag-window.ts';
import { BOUNDED_OPTIONS, BOUNDED_THRESHOLDS } from './lib/bounded.ts';
import { ReadGate, unreadThresholds } from './lib/bounded-read.ts';
import { apiUrl, readLoadConfig, requireCredentials, secretValues } from './lib/config.ts';
import { k6Duration } from './lib/env.ts';
import { flagCacheFindings, pairEvidence } from './lib/flag-cache-findings.ts';
import {
  changeSecond,
  featureStates,
  nextPollMs,
  readFlagPlan,
  ticksBefore,
  virtualSeconds,
} from './lib/flag-plan.ts';
import { inInit } from './lib/init.ts';
import { advanceClock, serverClockMs, setFeature } from './lib/k6/control.ts';
import { bearerHeaders, issueToken, type ReadAnswer, readBounded } from './lib/k6/http.ts';
import { inIteration } from './lib/k6/iteration.ts';
import { recordSample } from './lib/k6/sample.ts';
import { inSetup } from './lib/k6/setup.ts';
import { sampleOf, samplesOf } from './lib/samples.ts';
import { mayBeSessionExpired, VuSession } from './lib/session.ts';
import { allChecks, type K6SummaryData } from './lib/summary/k6-data.ts';
import { summaryOutputs } from './lib/summary/outputs.ts';
import { buildReport } from './lib/summary/report.ts';

const { config, plan } = inInit(() => {
  const config = readLoadConfig(__ENV);
  requireCredentials(config, 'bearer');
  return { config, plan: readFlagPlan(__ENV, config.controlUrl !== undefined, config.profile) };
});

const polls = new Counter('flag_cache_polls');
const changes = new Counter('flag_cache_changes');
const violations = new Counter('flag_cache_violations');
const rateLimited = new Counter('flag_cache_rate_limited');
const errors = new Counter('flag_cache_errors');
const renewals = new Counter('flag_cache_token_renewals');
/** Virtual seconds between two changes one poller saw: its min is the shortest window observed. */
const changeInterval = new Trend('flag_cache_change_interval_s');
/**
 * Windows put to the test: a poller saw a second renewal, both sharply placed (or a violation, proved
 * however blurred). None makes the run inconclusive.
 */
const windowsTested = new Counter('flag_cache_conclusive');
/** Pairs of changes placed too widely to be evidence (k6 short of CPU: late polls, slow answers). */
const blurredPairs = new Counter('flag_cache_blurred_pairs');
/** How widely each change is placed (s of the cache's clock): poll before it sent to its answer. */
const changeSpread = new Trend('flag_cache_change_spread_s');
/** How late each poll left (ms after its slot): k6's own iteration delays. */
const pollLate = new Trend('flag_cache_poll_late_ms', true);
/** Each poll's span on the cache's clock (ms): from before it was sent to after its answer. */
const pollSpan = new Trend('flag_cache_poll_span_ms', true);

// Room past the plan for a run that overran (a starved k6): changes later than this count in its last second.
const VIRTUAL_SECONDS = virtualSeconds(plan) + 30;

function changeTimeThresholds(): Record<string, string[]> {
  // One always-true threshold per virtual second surfaces each second's change count in the
  // summary data: that is how the change times reach the report.
  const thresholds: Record<string, string[]> = {};
  for (let sec = 0; sec < VIRTUAL_SECONDS; sec++) thresholds[`flag_cache_changes{sec:${sec}}`] = ['count>=0'];
  return thresholds;
}

const scenarios: Options['scenarios'] = {
  pollers: {
    executor: 'constant-vus',
    exec: 'poll',
    vus: plan.vus,
    duration: k6Duration(plan.durationSeconds),
    gracefulStop: k6Duration(Math.min(30, plan.pollSeconds + 5)),
  },
};
if (plan.tickSeconds > 0) {
  scenarios.clock = {
    executor: 'constant-vus',
    exec: 'tick',
    vus: 1,
    duration: k6Duration(plan.durationSeconds),
    gracefulStop: k6Duration(plan.tickSeconds + 5),
  };
}

export const options: Options = {
  ...BOUNDED_OPTIONS,
  scenarios,
  thresholds: {
    ...BOUNDED_THRESHOLDS,
    ...unreadThresholds(['token', 'flags', 'renewal', 'clock']),
    flag_cache_violations: ['count==0'],
    flag_cache_rate_limited: ['count==0'],
    // So that k6 itself never exits 0 for a run that proved nothing (the npm script exits 3).
    flag_cache_conclusive: ['count>0'],
    ...changeTimeThresholds(),
  },
  summaryTrendStats: ['min', 'avg', 'max', 'count'],
};

/** Sleeps until a moment of the run (ms since it started). */
function sleepUntil(ms: number): void {
  const wait = ms - exec.instance.currentTestRunDuration;
  if (wait > 0) sleep(wait / 1000);
}

// Per VU (each k6 VU has its own runtime): its token and its view of the renewals.
const session = new VuSession(() => issueToken(config));
/** Whether this poller's last flags answer declared a readable size (its next poll is then read). */
const flagsGate = new ReadGate();
const tracker = new FlagWindowTracker({ windowMs: plan.windowSeconds * 1000, toleranceMs: plan.toleranceMs });
let lastChangeAt: number | undefined;
let lastSlotMs = -1;
const END_MS = plan.durationSeconds * 1000;

interface SetupData {
  /** The reference server's clock when the run started (ms since the epoch), when it has one to read. */
  clockOriginMs?: number;
}

export function setup(): SetupData {
  // One token first: a refused or unreadable token answer stops the run in one line before any
  // poller starts (each poller then asks for its own).
  return inSetup(() => {
    issueToken(config);
    return config.controlUrl ? { clockOriginMs: serverClockMs(config) } : {};
  });
}

export function poll(data: SetupData): void {
  inIteration(() => pollOnce(data));
}

/** Now on the clock the cache runs on, in ms since the run started. */
function cacheClockMs(data: SetupData): number {
  return data.clockOriginMs !== undefined
    ? serverClockMs(config) - data.clockOriginMs
    : exec.instance.currentTestRunDuration;
}

function pollOnce(data: SetupData): void {
  session.token();
  const slot = nextPollMs(
    plan,
    exec.vu.idInTest - 1,
    Math.max(exec.instance.currentTestRunDuration, lastSlotMs + 1),
  );
  if (slot >= END_MS) {
    // No poll after the run's end (the ticks stop there); wait to be stopped.
    sleepUntil(END_MS + 1000);
    return;
  }
  lastSlotMs = slot;
  sleepUntil(slot);
  pollLate.add(Math.max(0, exec.instance.currentTestRunDuration - slot));
  const sentAtMs = cacheClockMs(data);
  // The flag data is what is compared: a poll is read in the same ask when this poller's last
  // flags answer declared at most 1 MiB with no content coding (its first poll only shows the size:
  // polls are never doubled, their count and timing are what the probe measures). An error answer
  // not read in its ask is asked again, kept, when it declared a readable size (SESSION_EXPIRED).
  const { response, renewed } = session.send((token) =>
    readBounded(
      config,
      'GET',
      apiUrl(config, 'v1/feature-flags'),
      null,
      { headers: bearerHeaders(token), tags: { name: 'GET /v1/feature-flags', endpoint: 'feature-flags' } },
      flagsGate,
      (r) =>
        r.status >= 200 && r.status < 300 ? 'flags' : mayBeSessionExpired(r.status) ? 'renewal' : undefined,
    ),
  );
  const atMs = cacheClockMs(data);
  pollSpan.add(atMs - sentAtMs);
  // 0 when not renewed: the dashboard draws a clean run's 0, not "no data" (so for every event counter).
  renewals.add(renewed ? 1 : 0);
  record(response, sentAtMs, atMs);
}

function record(read: ReadAnswer, sentAtMs: number, atMs: number): void {
  const res = read.response;
  polls.add(1);
  // A body not read (the first poll, or one too big to read) is no data: the tracker skips it.
  const seen = tracker.observe({ sentAtMs, atMs, status: res.status, body: read.body });
  rateLimited.add(seen.rateLimited ? 1 : 0);
  errors.add(!seen.rateLimited && (res.status < 200 || res.status >= 300) ? 1 : 0, {
    status: String(res.status),
  });
  check(res, { 'feature flags answered 200': (r) => r.status === 200 });
  if (seen.change) {
    changes.add(1, { sec: String(changeSecond(atMs, VIRTUAL_SECONDS)) });
    changeSpread.add(spreadOf(seen.change) / 1000);
    if (lastChangeAt !== undefined) {
      // Only a pair placed sharply enough (or a violation, proved however wide) tests the window.
      if (pairEvidence(seen) === 'tested') {
        changeInterval.add((atMs - lastChangeAt) / 1000);
        windowsTested.add(1);
      } else blurredPairs.add(1);
    }
    lastChangeAt = atMs;
    check(seen, {
      [`no change within ${plan.windowSeconds} s of the previous renewal`]: (s) => s.violation === undefined,
    });
  }
  violations.add(seen.violation ? 1 : 0);
  if (seen.violation) {
    const v = seen.violation;
    // The answer that changed too soon, as the evidence of FLG-02's failure (load/lib/samples.ts).
    recordSample(
      'violation',
      () =>
        sampleOf(
          res,
          read.body,
          `the data changed at ${(v.atMs / 1000).toFixed(1)} s, at most ${(v.maxGapMs / 1000).toFixed(1)} s after the renewal the previous change at ${(v.previousChangeAtMs / 1000).toFixed(1)} s came from (the window is ${plan.windowSeconds} s)`,
          'GET /v1/feature-flags',
        ),
      () => [...secretValues(config), session.token()],
    );
  }
  if (seen.rateLimited) {
    recordSample(
      'rate-limited',
      () => sampleOf(res, read.body, 'a poll answered 429', 'GET /v1/feature-flags'),
      () => [...secretValues(config), session.token()],
    );
  }
}

export function tick(): void {
  inIteration(tickOnce);
}

function tickOnce(): void {
  if (!config.controlUrl) return;
  const next = ticksBefore(plan, exec.instance.currentTestRunDuration) + 1;
  if (next * plan.tickSeconds * 1000 >= END_MS) {
    sleepUntil(END_MS + 1000);
    return;
  }
  sleepUntil(next * plan.tickSeconds * 1000);
  for (const { feature, enabled } of featureStates(plan, next)) setFeature(config, feature, enabled);
  if (plan.lapseSeconds > 0) advanceClock(config, plan.lapseSeconds);
}

export function teardown(): void {
  // Leave the reference server's flags as the run found them (all on at start).
  if (config.controlUrl) for (const { feature } of featureStates(plan, 0)) setFeature(config, feature, true);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  const report = buildReport(data, {
    script: 'flag-cache',
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl },
    finishedAt: new Date(),
    ...flagCacheFindings(data.metrics, plan, samplesOf(allChecks(data.root_group))),
  });
  return summaryOutputs(report, config.reportDir, secretValues(config));
}
