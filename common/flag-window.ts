// The flag-cache rule: GET /v1/feature-flags data is renewed at most once per 60 s. A poller sees a
// renewal as a change of the body between two polls, somewhere in (previous poll, this poll]. Two
// changes prove a violation when even the most generous placing of both renewals leaves them less
// than the window apart: (this change) - (the poll before the previous change) < 60 s. Pure and
// k6-loadable (no Node imports): each k6 VU feeds its own polls to a tracker; the conformance
// suite's real-time watch (src/checks/flag-watch.ts) feeds its whole watch to the verdicts below.

export interface FlagPoll {
  /** Milliseconds on the clock the server's cache runs on (or the best estimate of it). */
  atMs: number;
  /**
   * When the request went out, if known (atMs is then when the answer came): the renewal a change
   * reveals may lie anywhere after the previous poll was sent, so the gaps judged are the longest
   * possible ones.
   */
  sentAtMs?: number;
  status: number;
  body: string | null;
}

export interface FlagChange {
  atMs: number;
  /** The poll before (when it was sent): the renewal happened after it. */
  afterMs: number;
}

/**
 * Two changes put the window to the test only when each is placed sharply: their placings' spreads
 * (from the poll before to the answer that showed it) together at most this fraction of the window
 * (less the tolerance).
 * A cache renewing twice as often as the window then always shows as a violation, so a pair that
 * shows none is evidence for the window, not just for wide polls. A starved poller (late polls,
 * slow answers) spreads its changes past this: its pairs prove nothing either way but a violation.
 */
export const PAIR_SPREAD_FRACTION = 0.5;

/** Two consecutive changes one poller saw: how sharply they are placed, and whether that suffices. */
export interface FlagPair {
  /** The two changes' spreads added (ms): how far the gap between the renewals is uncertain. */
  spreadMs: number;
  /** The spread is within PAIR_SPREAD_FRACTION of the window: the pair is evidence for it. */
  tested: boolean;
}

export interface FlagViolation {
  atMs: number;
  previousChangeAtMs: number;
  /** The longest the two renewals can have been apart. */
  maxGapMs: number;
}

export interface FlagWindowOptions {
  windowMs?: number;
  /** Slack for clock differences between poller and server. */
  toleranceMs?: number;
}

export interface FlagObservation {
  /** Set when the data differs from the previous successful poll. */
  change?: FlagChange;
  /** Set with a change that follows another: the pair's sharpness. */
  pair?: FlagPair;
  violation?: FlagViolation;
  rateLimited: boolean;
}

export class FlagWindowTracker {
  private lastBody: string | undefined;
  private lastPollMs: number | undefined;
  private lastChange: FlagChange | undefined;
  private readonly windowMs: number;
  private readonly toleranceMs: number;

  constructor(options: FlagWindowOptions = {}) {
    this.windowMs = options.windowMs ?? 60_000;
    this.toleranceMs = options.toleranceMs ?? 1000;
  }

  observe(poll: FlagPoll): FlagObservation {
    if (poll.status === 429) return { rateLimited: true };
    // Only successful answers carry flag data; errors neither change it nor move the last poll.
    if (poll.status < 200 || poll.status >= 300 || poll.body === null) return { rateLimited: false };
    const body = canonical(poll.body);
    const previousPoll = this.lastPollMs;
    const changed = this.lastBody !== undefined && body !== this.lastBody && previousPoll !== undefined;
    this.lastBody = body;
    this.lastPollMs = poll.sentAtMs ?? poll.atMs;
    if (!changed) return { rateLimited: false };
    const change: FlagChange = { atMs: poll.atMs, afterMs: previousPoll };
    let violation: FlagViolation | undefined;
    let pair: FlagPair | undefined;
    if (this.lastChange) {
      // The longest the renewals can have been apart: a violation is proved however blurred the
      // polls were (wider placings only make it longer).
      const maxGapMs = change.atMs - this.lastChange.afterMs;
      if (maxGapMs < this.windowMs - this.toleranceMs) {
        violation = { atMs: change.atMs, previousChangeAtMs: this.lastChange.atMs, maxGapMs };
      }
      const spreadMs = spreadOf(change) + spreadOf(this.lastChange);
      pair = { spreadMs, tested: spreadMs <= this.windowMs * PAIR_SPREAD_FRACTION - this.toleranceMs };
    }
    this.lastChange = change;
    return {
      change,
      ...(pair ? { pair } : {}),
      ...(violation ? { violation } : {}),
      rateLimited: false,
    };
  }
}

/** How widely a change is placed: from the poll before it (sent) to the answer that showed it. */
export function spreadOf(change: FlagChange): number {
  return change.atMs - change.afterMs;
}

/** JSON bodies compared by value (key order and whitespace do not make a change). */
export function canonical(body: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(body)));
  } catch {
    return body;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

export interface FlagAnalysis {
  polls: number;
  changes: FlagChange[];
  /** Each change that followed another one poller saw: how sharply the two are placed. */
  pairs: FlagPair[];
  violations: FlagViolation[];
  rateLimited: number;
  errors: number;
}

/** A whole run: one sequence of polls per poller (each has its own view of the renewals). */
export function analyseFlagPolls(
  pollers: readonly (readonly FlagPoll[])[],
  options: FlagWindowOptions = {},
): FlagAnalysis {
  const result: FlagAnalysis = {
    polls: 0,
    changes: [],
    pairs: [],
    violations: [],
    rateLimited: 0,
    errors: 0,
  };
  for (const polls of pollers) {
    const tracker = new FlagWindowTracker(options);
    for (const poll of polls) {
      result.polls += 1;
      const seen = tracker.observe(poll);
      if (seen.rateLimited) result.rateLimited += 1;
      else if (poll.status < 200 || poll.status >= 300) result.errors += 1;
      if (seen.change) result.changes.push(seen.change);
      if (seen.pair) result.pairs.push(seen.pair);
      if (seen.violation) result.violations.push(seen.violation);
    }
  }
  return result;
}

// --- The conformance suite's real-time watch: its plan and its verdicts -------------------------

/** Slack for timing: 1 s for the spec's 60 s window, less for the short windows tests use. */
export function defaultToleranceMs(windowMs: number): number {
  return Math.min(1000, windowMs / 20);
}

export interface FlagWatchPlan {
  windowMs: number;
  /** Between two polls: 10 s for a 60 s window (6 flag requests a minute, far below any limiter). */
  pollMs: number;
  /**
   * Two windows and a little more (160 s for 60 s): room for two renewals, and for a feature seen in
   * one state for a window and then in the other for a window (plus a poll on each side).
   */
  durationMs: number;
  /** Polls in the watch (the first at 0, the last at durationMs). */
  polls: number;
  toleranceMs: number;
}

export function flagWatchPlan(windowMs: number): FlagWatchPlan {
  const pollMs = windowMs / 6;
  const durationMs = 2 * windowMs + 4 * pollMs;
  return {
    windowMs,
    pollMs,
    durationMs,
    polls: Math.round(durationMs / pollMs) + 1,
    toleranceMs: defaultToleranceMs(windowMs),
  };
}

export type WatchOutcome = 'passed' | 'failed' | 'inconclusive';

export interface WatchVerdict {
  outcome: WatchOutcome;
  /** Why: the evidence of a pass or failure, or what was missing. */
  detail: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * "Not renewed within the window": two changes closer than the window fail it (however blurred the
 * polls). A pass needs positive evidence: two changes placed sharply enough that a cache renewing
 * twice as often would have shown as a violation (PAIR_SPREAD_FRACTION). Changes seen only by a
 * starved watch (late polls, slow answers) prove nothing either way; fewer than two prove nothing.
 */
export function judgeWindow(analysis: FlagAnalysis, windowMs: number): WatchVerdict {
  const [violation] = analysis.violations;
  if (violation) {
    return {
      outcome: 'failed',
      detail:
        `the flag data changed at ${seconds(violation.previousChangeAtMs)} and again at ` +
        `${seconds(violation.atMs)}: at most ${seconds(violation.maxGapMs)} apart, less than the ` +
        `${seconds(windowMs)} window (${analysis.violations.length} such change(s))`,
    };
  }
  const tested = analysis.pairs.filter((pair) => pair.tested).length;
  if (tested > 0) {
    return {
      outcome: 'passed',
      detail: `${analysis.changes.length} changes seen, none within ${seconds(windowMs)} of the previous one`,
    };
  }
  if (analysis.pairs.length > 0) {
    const sharpest = Math.min(...analysis.pairs.map((pair) => pair.spreadMs));
    return {
      outcome: 'inconclusive',
      detail:
        `${analysis.changes.length} changes seen, but the polls placed them too loosely to test the ` +
        `window: the sharpest pair is uncertain by ${seconds(sharpest)}, more than ` +
        `${seconds(windowMs * PAIR_SPREAD_FRACTION)} (late polls or slow answers)`,
    };
  }
  return {
    outcome: 'inconclusive',
    detail: `the flag data ${analysis.changes.length === 0 ? 'never changed' : 'changed only once'}, so no window was put to the test`,
  };
}

/** The state of a flag-guarded route's feature, as its answer shows it (503 FEATURE_FLAG_DISABLED). */
export type FeatureState = 'enabled' | 'disabled' | 'unknown';

export interface RouteObservation {
  sentAtMs: number;
  atMs: number;
  state: FeatureState;
}

/** One tick of the watch: a flags poll, then (when a flag-guarded route is known) that route. */
export interface WatchTick {
  flags: FlagPoll;
  route?: RouteObservation;
}

interface Run {
  state: FeatureState;
  /** The first observation of the state in this run (when its answer came). */
  fromMs: number;
  /** Flags polls whose data must reflect this state. */
  reflecting: { poll: FlagPoll; body: string }[];
}

/**
 * Data served at a poll was taken less than a window (plus tolerance) before the poll was sent. When
 * the guarded route showed the same state of its feature from before that moment until after the
 * poll, the data reflects that state (assuming the feature did not flip and back between two
 * observations). Runs of one state, each with the polls that reflect it.
 */
function runsOf(ticks: readonly WatchTick[], windowMs: number, toleranceMs: number): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  for (const { flags, route } of ticks) {
    if (!route || route.state === 'unknown') {
      current = undefined;
      continue;
    }
    if (!current || current.state !== route.state) {
      current = { state: route.state, fromMs: route.atMs, reflecting: [] };
      runs.push(current);
    }
    const ok = flags.status >= 200 && flags.status < 300 && flags.body !== null;
    const sent = flags.sentAtMs ?? flags.atMs;
    // This tick's route answer came after the flags answer, so the run covers the poll's end too.
    if (ok && flags.body !== null && sent - windowMs - toleranceMs >= current.fromMs) {
      current.reflecting.push({ poll: flags, body: canonical(flags.body) });
    }
  }
  return runs;
}

/**
 * "Renewed once the window has passed". Evidence comes from a flag-guarded route: when its feature
 * was seen in one state for longer than a window and later in the other state for longer than a
 * window, flag data served at the end of each stretch must differ. Equal data fails the rule;
 * different data passes it. Without such stretches, a change of the data shows that renewal happens
 * (a pass); no change at all proves nothing.
 */
export function judgeRenewal(
  ticks: readonly WatchTick[],
  windowMs: number,
  toleranceMs = defaultToleranceMs(windowMs),
  route = 'the guarded route',
): WatchVerdict {
  const byRoute = judgeRenewalByRoute(ticks, windowMs, toleranceMs, route);
  if (byRoute) return byRoute;
  const analysis = analyseFlagPolls([ticks.map((t) => t.flags)], { windowMs, toleranceMs });
  const [first] = analysis.changes;
  if (first) {
    return { outcome: 'passed', detail: `the flag data was renewed with new data at ${seconds(first.atMs)}` };
  }
  return {
    outcome: 'inconclusive',
    detail: 'the flag data never changed and no flag-guarded route changed state',
  };
}

/** The verdict the guarded route's stretches give, if they give one. */
export function judgeRenewalByRoute(
  ticks: readonly WatchTick[],
  windowMs: number,
  toleranceMs = defaultToleranceMs(windowMs),
  route = 'the guarded route',
): WatchVerdict | undefined {
  const runs = runsOf(ticks, windowMs, toleranceMs).filter((r) => r.reflecting.length > 0);
  for (let i = 0; i < runs.length; i++) {
    const earlier = runs[i];
    const later = runs.slice(i + 1).find((r) => r.state !== earlier?.state);
    if (!earlier || !later) continue;
    const before = earlier.reflecting[earlier.reflecting.length - 1];
    const after = later.reflecting[0];
    if (!before || !after) continue;
    const story =
      `GET ${route} showed its feature ${earlier.state} from ${seconds(earlier.fromMs)} and ` +
      `${later.state} from ${seconds(later.fromMs)}`;
    if (before.body === after.body) {
      return {
        outcome: 'failed',
        detail:
          `${story}, yet GET /v1/feature-flags answered the same data at ${seconds(before.poll.atMs)} ` +
          `and at ${seconds(after.poll.atMs)}, more than the ${seconds(windowMs)} window after the change`,
      };
    }
    return {
      outcome: 'passed',
      detail: `${story}; the flag data followed within the ${seconds(windowMs)} window`,
    };
  }
  return undefined;
}
