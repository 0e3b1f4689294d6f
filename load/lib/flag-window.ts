// The flag-cache rule: GET /v1/feature-flags data is renewed at most once per 60 s. A poller sees a
// renewal as a change of the body between two polls, somewhere in (previous poll, this poll]. Two
// changes prove a violation when even the most generous placing of both renewals leaves them less
// than the window apart: (this change) - (the poll before the previous change) < 60 s. Pure: each
// k6 VU feeds its own polls to a tracker; vitest feeds whole runs to analyseFlagPolls.

export interface FlagPoll {
  /** Milliseconds on the clock the server's cache runs on (or the best estimate of it). */
  atMs: number;
  status: number;
  body: string | null;
}

export interface FlagChange {
  atMs: number;
  /** The poll before: the renewal happened after it. */
  afterMs: number;
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
    this.lastPollMs = poll.atMs;
    if (!changed) return { rateLimited: false };
    const change: FlagChange = { atMs: poll.atMs, afterMs: previousPoll };
    let violation: FlagViolation | undefined;
    if (this.lastChange) {
      const maxGapMs = change.atMs - this.lastChange.afterMs;
      if (maxGapMs < this.windowMs - this.toleranceMs) {
        violation = { atMs: change.atMs, previousChangeAtMs: this.lastChange.atMs, maxGapMs };
      }
    }
    this.lastChange = change;
    return violation ? { change, violation, rateLimited: false } : { change, rateLimited: false };
  }
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
  violations: FlagViolation[];
  rateLimited: number;
  errors: number;
}

/** A whole run: one sequence of polls per poller (each has its own view of the renewals). */
export function analyseFlagPolls(
  pollers: readonly (readonly FlagPoll[])[],
  options: FlagWindowOptions = {},
): FlagAnalysis {
  const result: FlagAnalysis = { polls: 0, changes: [], violations: [], rateLimited: 0, errors: 0 };
  for (const polls of pollers) {
    const tracker = new FlagWindowTracker(options);
    for (const poll of polls) {
      result.polls += 1;
      const seen = tracker.observe(poll);
      if (seen.rateLimited) result.rateLimited += 1;
      else if (poll.status < 200 || poll.status >= 300) result.errors += 1;
      if (seen.change) result.changes.push(seen.change);
      if (seen.violation) result.violations.push(seen.violation);
    }
  }
  return result;
}
