// The rate-limit probe as a person would measure a limiter: read the headers, burst until refused
// (the allowance), wait for the refill with polls whose spacing grows with the wait (about 2 % of
// the time waited, so every duration is pinned to a few per cent whatever its length), burst again
// at once. A full allowance back at once is a window: a second refill wait gives its length. A
// trickle is a token bucket: paced requests count its rate, and a burst after it had time to fill
// gives its capacity. Pure and synchronous: k6 gives it http.batch and sleep, vitest a simulated
// limiter on a virtual clock, so the logic is proved without waiting.

import { errorBodyProblems, jsonBody } from '../../common/error-body.ts';
import { retryAfterSeconds } from '../../common/retry-after.ts';
import {
  type DeclaredLimit,
  declaredFrom,
  type HeaderMap,
  header,
  NOTHING_DECLARED,
} from './rate-headers.ts';

export interface ProbeAnswer {
  status: number;
  headers: HeaderMap;
  /** undefined: not read (the bursts' bodies are discarded, load/lib/bounded.ts); null: none. */
  body: string | null | undefined;
  /** When the request was sent and its answer came back (ms, the probe's clock). */
  sentAtMs: number;
  receivedAtMs: number;
}

export interface ProbeIO {
  now(): number;
  sleep(ms: number): void;
  /** Sends `count` requests at once (in parallel) and returns their answers. */
  send(count: number): ProbeAnswer[];
}

export interface ProbeLimits {
  /** Wall time the probe may take (ms); past it, it stops and says what it could not pin down. */
  budgetMs: number;
  /** Requests one burst may send before it concludes no limiter is in reach. */
  maxBurst: number;
  /** Requests sent at once during a burst. */
  batch: number;
  /** Spacing of the refill polls: a fraction of the time waited so far, within [min, max] ms. */
  pollFraction: number;
  minPollMs: number;
  maxPollMs: number;
}

export const DEFAULT_LIMITS: ProbeLimits = {
  budgetMs: 240_000,
  maxBurst: 20_000,
  batch: 20,
  pollFraction: 0.02,
  minPollMs: 10,
  maxPollMs: 1000,
};

export type Shape = 'window' | 'token-bucket' | 'unknown';

/**
 * How far the probe's own timing can be trusted. A refill is seen between two polls, so its moment is
 * known only to half their spacing plus the answer's trip; a burst counts an allowance only while its
 * batches come back quicker than the allowance refills. On a machine short of CPU (k6 starved, its
 * sleeps overrun, its answers read late) these spread past what separates a fixed window, a sliding
 * window and a token bucket: the probe then says it cannot tell rather than guess.
 */
export const NOISE_FRACTION = 0.1;
/** A burst's batches may each take at most this fraction of the period they measure. */
export const SPACING_FRACTION = 0.25;
/** A "no refusal" verdict needs bursts at least this many times faster than the declared rate. */
export const OUTRUN_FACTOR = 2;

export interface ProbeTiming {
  /** Polls sent later than planned (k6's own delays, a starved machine): the worst, in ms. */
  pollLateMaxMs: number;
  /** Send to answer of the polls, the worst (ms). */
  roundTripMaxMs: number;
  /** The slowest batch of any burst (ms): the spacing of a burst's requests. */
  batchMaxMs: number;
  /** The first burst's pace (accepted requests per second it achieved). */
  firstBurstPerSecond?: number;
}

export interface LimitMeasurement {
  /** The limiter refused at least once. */
  limited: boolean;
  shape: Shape;
  /** Requests accepted in a burst from a full allowance. */
  burst?: number;
  /** The sustained rate the limiter allows (req/s). */
  ratePerSecond?: number;
  /** Windowed limiters: requests per window and the window's length. */
  limitPerWindow?: number;
  windowSeconds?: number;
  /** How the figures were found, in words. */
  method: string;
  /** What the headers announce. */
  declared: DeclaredLimit;
  /** Figures the probe could not pin down within its budget, with why. */
  missing: string[];
  /** Set when the probe's own timing was too noisy to tell the shapes apart (or no shape fitted): why. */
  cannotTell?: string;
  /** The probe's own timing, to judge how far its figures hold. */
  timing?: ProbeTiming;
}

/** An answer of the probe as a report shows it. */
export interface SampleAnswer {
  /** Why it is the sample: "refused with 503 instead of 429", "a malformed 429". */
  why: string;
  status: number;
  headers: Record<string, string>;
  /** Cut; absent when the probe did not read it (a burst's bodies are discarded). */
  body?: string;
}

const SAMPLE_BODY = 1000;

function sampleOf(a: ProbeAnswer, why: string): SampleAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(a.headers)) if (value !== undefined) headers[name] = value;
  const body = typeof a.body === 'string' ? a.body.slice(0, SAMPLE_BODY) : undefined;
  return { why, status: a.status, headers, ...(body === undefined ? {} : { body }) };
}

export interface ProbeTally {
  accepted: number;
  limited: number;
  /** 5xx or no answer (status 0). */
  serverErrors: number;
  /** Other statuses (401, 404, ...): the probe cannot measure through them. */
  other: number;
  otherStatuses: number[];
  /** Refusals that are not 429 (5xx where the limiter should say 429). */
  refusalStatuses: number[];
  malformed429: number;
  malformedReasons: string[];
  retryAfterMin?: number;
  retryAfterMax?: number;
  /**
   * Retry-After kept: `honoured` refusal streaks ended by an accepted request with none refused
   * after the wait they announced; `refused` requests sent after that wait and refused anyway.
   */
  afterRetryAfter: { honoured: number; refused: number };
  /**
   * The first answer a failure is about, kept as evidence: a refusal other than 429, else a 429
   * whose error body or Retry-After is wrong. Its body cut to SAMPLE_BODY characters (the report's
   * secret filter runs over it like over every text).
   */
  sample?: SampleAnswer;
}

/** What one send of the probe met: the limiter drawn over time (limiter-chart.ts). */
export interface TimelinePoint {
  /** When the requests were sent, ms after the probe started. */
  atMs: number;
  accepted: number;
  /** 429 answers. */
  limited: number;
  /** Other refusals (5xx, no answer) and statuses the probe cannot measure through. */
  other: number;
  /** The most RateLimit remaining these answers announced, when they announced one: refills show. */
  remaining?: number;
}

/** Points kept at most: past it, neighbours are merged two by two (a stress run sends thousands of batches). */
export const TIMELINE_POINTS = 4000;

export interface ProbeResult {
  limit: LimitMeasurement;
  tally: ProbeTally;
  /** Every send, in order (merged in pairs past TIMELINE_POINTS). */
  timeline?: TimelinePoint[];
  /** Wall time taken (ms). */
  durationMs: number;
  /** Why the probe stopped early, when it did. */
  stoppedBecause?: string;
}

/** Two neighbouring points as one: counts added, the earlier time, the most remaining. */
export function mergePairs(points: readonly TimelinePoint[]): TimelinePoint[] {
  const merged: TimelinePoint[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const a = points[i] as TimelinePoint;
    const b = points[i + 1];
    if (!b) {
      merged.push(a);
      continue;
    }
    const remaining = [a.remaining, b.remaining].filter((r): r is number => r !== undefined);
    merged.push({
      atMs: a.atMs,
      accepted: a.accepted + b.accepted,
      limited: a.limited + b.limited,
      other: a.other + b.other,
      ...(remaining.length ? { remaining: Math.max(...remaining) } : {}),
    });
  }
  return merged;
}

/** An answer is a refusal when it is neither accepted nor a client error the probe caused. */
const isAccepted = (s: number) => s >= 200 && s < 400;
const isRefusal = (s: number) => s === 429 || s >= 500 || s === 0;

interface BurstOutcome {
  accepted: number;
  refused: boolean;
  startMs: number;
  endMs: number;
  /** From the first batch to the last batch with an accepted answer (when refills could add). */
  acceptedSpanMs: number;
  /** When the first refusal was sent, and the wait it announced. */
  refusedAtMs?: number;
  retryAfterSeconds?: number;
  /** The slowest batch's send to answer (ms). */
  batchMaxMs: number;
}

class Probe {
  private readonly startMs: number;
  readonly tally: ProbeTally = {
    accepted: 0,
    limited: 0,
    serverErrors: 0,
    other: 0,
    otherStatuses: [],
    refusalStatuses: [],
    malformed429: 0,
    malformedReasons: [],
    afterRetryAfter: { honoured: 0, refused: 0 },
  };
  declared: DeclaredLimit = NOTHING_DECLARED;
  readonly timeline: TimelinePoint[] = [];
  /** Earliest moment a request must succeed by the last Retry-After (ms), with slack for the trip. */
  private retryDueMs: number | undefined;
  private streakBroken = false;
  stopped: string | undefined;
  readonly timing: ProbeTiming = { pollLateMaxMs: 0, roundTripMaxMs: 0, batchMaxMs: 0 };

  private readonly io: ProbeIO;
  private readonly limits: ProbeLimits;

  constructor(io: ProbeIO, limits: ProbeLimits) {
    this.io = io;
    this.limits = limits;
    this.startMs = io.now();
  }

  elapsed(): number {
    return this.io.now() - this.startMs;
  }

  left(): number {
    return this.limits.budgetMs - this.elapsed();
  }

  private record(answers: ProbeAnswer[]): void {
    for (const a of answers) {
      this.declared = declaredFrom(this.declared, a.headers, a.status, a.receivedAtMs);
      const t = this.tally;
      const overdue = this.retryDueMs !== undefined && a.sentAtMs >= this.retryDueMs;
      if (isAccepted(a.status)) {
        t.accepted++;
        if (this.retryDueMs !== undefined && !this.streakBroken) t.afterRetryAfter.honoured++;
        this.retryDueMs = undefined;
        this.streakBroken = false;
        continue;
      }
      if (overdue && isRefusal(a.status)) {
        t.afterRetryAfter.refused++;
        this.streakBroken = true;
      }
      if (!isRefusal(a.status)) {
        t.other++;
        if (!t.otherStatuses.includes(a.status)) t.otherStatuses.push(a.status);
        continue;
      }
      if (a.status !== 429) {
        t.serverErrors++;
        if (!t.refusalStatuses.includes(a.status)) t.refusalStatuses.push(a.status);
        // A refusal that is not 429 is the evidence of the limiter's verdict: it wins over a 429's.
        if (t.sample === undefined || t.sample.status === 429)
          t.sample = sampleOf(a, `refused with HTTP ${a.status} instead of 429`);
        continue;
      }
      t.limited++;
      // A discarded body (a burst's) is not judged; single polls read theirs.
      const problems = a.body === undefined ? [] : errorBodyProblems(jsonBody(a.body), 429);
      const wait = retryAfterSeconds(header(a.headers, 'retry-after'), a.receivedAtMs);
      if (wait === undefined) problems.push('no usable Retry-After');
      if (problems.length) {
        t.sample ??= sampleOf(a, `a 429 with ${problems.join('; ')}`);
        t.malformed429++;
        for (const p of problems) if (!t.malformedReasons.includes(p)) t.malformedReasons.push(p);
      }
      if (wait !== undefined) {
        t.retryAfterMin = Math.min(t.retryAfterMin ?? wait, wait);
        t.retryAfterMax = Math.max(t.retryAfterMax ?? wait, wait);
        // A request sent once the first wait of a streak is over must succeed; 250 ms covers the
        // trip. Later refusals of the streak may not push that moment back.
        this.retryDueMs = Math.min(
          this.retryDueMs ?? Number.POSITIVE_INFINITY,
          a.receivedAtMs + wait * 1000 + 250,
        );
      }
    }
  }

  private draw(answers: ProbeAnswer[]): void {
    const first = answers[0];
    if (!first) return;
    const point: TimelinePoint = { atMs: first.sentAtMs - this.startMs, accepted: 0, limited: 0, other: 0 };
    for (const a of answers) {
      if (isAccepted(a.status)) point.accepted++;
      else if (a.status === 429) point.limited++;
      else point.other++;
      const remaining = declaredFrom(NOTHING_DECLARED, a.headers, a.status, a.receivedAtMs).remaining;
      if (remaining !== undefined) point.remaining = Math.max(point.remaining ?? remaining, remaining);
    }
    this.timeline.push(point);
    if (this.timeline.length >= TIMELINE_POINTS) {
      const merged = mergePairs(this.timeline);
      this.timeline.splice(0, this.timeline.length, ...merged);
    }
  }

  send(count: number): ProbeAnswer[] {
    const answers = this.io.send(count);
    this.record(answers);
    this.draw(answers);
    const other = answers.find((a) => !isAccepted(a.status) && !isRefusal(a.status));
    if (other && this.stopped === undefined) {
      this.stopped = `the probed route answered HTTP ${other.status}, which is neither a success nor a refusal by the limiter: check the credentials and RATE_PATH`;
    }
    return answers;
  }

  /** Sends batches until refused (or the burst cap, the budget, a stop). */
  burst(startAccepted = 0): BurstOutcome {
    const startMs = this.io.now();
    let accepted = startAccepted;
    let lastAcceptedBatchMs = startMs;
    let batchMaxMs = 0;
    while (this.stopped === undefined && accepted < this.limits.maxBurst && this.left() > 0) {
      // Far past a declared quota without a refusal: the declared limiter is not enforced.
      if (this.declared.quota !== undefined && accepted > this.declared.quota * 3 + this.limits.batch) break;
      const batchMs = this.io.now();
      const answers = this.send(this.limits.batch);
      const took = Math.max(0, ...answers.map((a) => a.receivedAtMs)) - batchMs;
      batchMaxMs = Math.max(batchMaxMs, took);
      this.timing.batchMaxMs = Math.max(this.timing.batchMaxMs, took);
      const acceptedNow = answers.filter((a) => isAccepted(a.status)).length;
      accepted += acceptedNow;
      if (acceptedNow > 0) lastAcceptedBatchMs = batchMs;
      const refusal = answers.find((a) => isRefusal(a.status));
      if (refusal) {
        const wait = retryAfterSeconds(header(refusal.headers, 'retry-after'), refusal.receivedAtMs);
        return {
          accepted,
          refused: true,
          startMs,
          endMs: this.io.now(),
          acceptedSpanMs: lastAcceptedBatchMs - startMs,
          refusedAtMs: refusal.sentAtMs,
          batchMaxMs,
          ...(wait !== undefined ? { retryAfterSeconds: wait } : {}),
        };
      }
    }
    return {
      accepted,
      refused: false,
      startMs,
      endMs: this.io.now(),
      acceptedSpanMs: lastAcceptedBatchMs - startMs,
      batchMaxMs,
    };
  }

  /** Sleeps `ms` then sends one request, noting how late it left and how long its answer took. */
  poll(ms: number): ProbeAnswer | undefined {
    const planned = this.io.now() + Math.max(0, ms);
    this.sleep(ms);
    const [answer] = this.send(1);
    if (answer) {
      this.timing.pollLateMaxMs = Math.max(this.timing.pollLateMaxMs, answer.sentAtMs - planned);
      this.timing.roundTripMaxMs = Math.max(
        this.timing.roundTripMaxMs,
        answer.receivedAtMs - answer.sentAtMs,
      );
    }
    return answer;
  }

  /**
   * Polls one request at a time from `fromMs` until one is accepted. The refill happened between
   * the last refused poll and the accepted one: the midpoint is returned, with the spacing.
   */
  waitForRefill(fromMs: number, deadlineMs: number): { atMs: number; uncertaintyMs: number } | undefined {
    let lastRefusedMs = fromMs;
    while (this.stopped === undefined && this.io.now() - this.startMs < deadlineMs) {
      const waited = this.io.now() - fromMs;
      const spacing = Math.min(
        this.limits.maxPollMs,
        Math.max(this.limits.minPollMs, waited * this.limits.pollFraction),
      );
      const answer = this.poll(spacing);
      if (!answer) continue;
      if (isAccepted(answer.status)) {
        // The server counted it somewhere between its sending and its answer: a late answer (a
        // starved k6 reads it late) widens the interval, honestly.
        return {
          atMs: (lastRefusedMs + answer.receivedAtMs) / 2,
          uncertaintyMs: (answer.receivedAtMs - lastRefusedMs) / 2,
        };
      }
      lastRefusedMs = answer.sentAtMs;
    }
    return undefined;
  }

  sleep(ms: number): void {
    if (ms > 0) this.io.sleep(ms);
  }
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function runLimitProbe(io: ProbeIO, limits: ProbeLimits = DEFAULT_LIMITS): ProbeResult {
  const probe = new Probe(io, limits);
  const started = io.now();
  const done = (limit: Omit<LimitMeasurement, 'declared'>): ProbeResult => ({
    limit: { ...limit, declared: probe.declared, timing: probe.timing },
    tally: probe.tally,
    timeline: probe.timeline,
    durationMs: io.now() - started,
    ...(probe.stopped ? { stoppedBecause: probe.stopped } : {}),
  });
  const budget = limits.budgetMs;
  const outOfBudget = (what: string) =>
    `${what}: not pinned down within the budget of ${Math.round(budget / 1000)} s (raise it with RATE_BUDGET or a larger --profile)`;
  const ms = (v: number) => `${Math.round(v)} ms`;
  const noise = () =>
    `polls up to ${ms(probe.timing.pollLateMaxMs)} late, answers up to ${ms(probe.timing.roundTripMaxMs)}, burst batches up to ${ms(probe.timing.batchMaxMs)}`;
  // No shape is named without evidence for it: when the timing cannot separate them, say so.
  const cannotTell = (why: string, burst?: number): ProbeResult => {
    const reason = `${why} (${noise()}; k6 short of CPU or a slow network blurs the timing)`;
    return done({
      limited: true,
      shape: 'unknown',
      ...(burst !== undefined ? { burst } : {}),
      method: 'cannot tell the shape from this run',
      missing: [],
      cannotTell: reason,
    });
  };
  /** Why a length measured from refills is too blurred to judge, or undefined when it holds. */
  const blurred = (lengthMs: number, uncertaintyMs: number, batchMs: number, what: string) => {
    if (uncertaintyMs > lengthMs * NOISE_FRACTION) {
      return `${what} ${round(lengthMs / 1000)} s is known only to ±${round(uncertaintyMs / 1000)} s, more than ${NOISE_FRACTION * 100} % of it`;
    }
    if (batchMs > lengthMs * SPACING_FRACTION) {
      return `a burst's batches took up to ${ms(batchMs)}, more than ${SPACING_FRACTION * 100} % of the ${what} ${round(lengthMs / 1000)} s: its count is no measure of the allowance`;
    }
    return undefined;
  };

  // 1. Burst from whatever allowance there is, until refused.
  const first = probe.burst();
  const firstSpanMs = Math.max(1, first.endMs - first.startMs);
  probe.timing.firstBurstPerSecond = round((first.accepted / firstSpanMs) * 1000, 1);
  if (!first.refused) {
    return done({
      limited: false,
      shape: 'unknown',
      method: probe.stopped
        ? 'stopped before the limiter was met'
        : `no refusal after ${first.accepted} requests in ${round((first.endMs - first.startMs) / 1000, 1)} s`,
      missing: ['burst', 'ratePerSecond'],
    });
  }

  // 2. Wait for the refill; the accepted poll is the first request of the next burst.
  const refill1 = probe.waitForRefill(first.refusedAtMs ?? first.endMs, budget);
  if (!refill1) {
    return done({
      limited: true,
      shape: 'unknown',
      burst: first.accepted,
      method: 'one burst; no refill seen',
      missing: [outOfBudget('the refill (ratePerSecond, windowSeconds)')],
    });
  }
  const second = probe.burst(1);
  if (!second.refused) {
    return done({
      limited: true,
      shape: 'unknown',
      burst: first.accepted,
      method: 'one burst; the second was never refused',
      missing: [outOfBudget('the second refusal')],
    });
  }

  // 3a. Part of the allowance back, more than a token or two: a sliding window giving back the
  // first burst at the pace it was accepted. Its length is the time from the first burst's start to
  // the refill (the oldest request left); after a quiet window the allowance is whole: burst again.
  const sliding = (why: string): ProbeResult => {
    const windowMs = refill1.atMs - first.startMs;
    const windowSeconds = round(windowMs / 1000);
    const noisy = blurred(windowMs, refill1.uncertaintyMs, first.batchMaxMs, 'the sliding window');
    if (noisy) return cannotTell(noisy, first.accepted);
    if (windowMs * 1.2 + 1000 > probe.left()) {
      return done({
        limited: true,
        shape: 'window',
        burst: first.accepted,
        limitPerWindow: first.accepted,
        windowSeconds,
        ratePerSecond: round(first.accepted / windowSeconds),
        method: `burst; ${why} (a sliding window); window = first burst to first refill`,
        missing: [outOfBudget('a burst after a quiet window (the first burst is shown)')],
      });
    }
    probe.sleep(windowMs * 1.1 + 100);
    const whole = probe.burst();
    const wholeNoisy = blurred(windowMs, 0, whole.batchMaxMs, 'the sliding window');
    if (wholeNoisy) return cannotTell(wholeNoisy, first.accepted);
    return done({
      limited: true,
      shape: 'window',
      burst: whole.accepted,
      limitPerWindow: whole.accepted,
      windowSeconds,
      ratePerSecond: round(whole.accepted / windowSeconds),
      method: `burst after a quiet window; ${why} (a sliding window); window = first burst to first refill (±${round(refill1.uncertaintyMs / 1000)} s)`,
      missing: whole.refused ? [] : [outOfBudget('the burst after a quiet window (never refused)')],
    });
  };
  // A long first wait (half a second or more) tells a window from a fast-refilling bucket.
  const firstWait = refill1.atMs - (first.refusedAtMs ?? first.endMs);
  // A first burst as long as the wait may have run into the next window: its count is no yardstick.
  const firstBurstReliable = first.endMs - first.startMs < firstWait / 2;
  if (
    firstWait >= 500 &&
    firstBurstReliable &&
    second.accepted < first.accepted * 0.8 &&
    second.accepted >= Math.max(3, first.accepted * 0.2)
  ) {
    return sliding('the allowance came back in part, at the pace it was used');
  }

  // 3b. The whole allowance back at once: a fixed window. Its length is the time between two refills.
  if (
    second.accepted >= Math.max(2, first.accepted * 0.5) ||
    (!firstBurstReliable && firstWait >= 500 && second.accepted >= 2)
  ) {
    const refill2 = probe.waitForRefill(second.refusedAtMs ?? second.endMs, budget);
    if (!refill2) {
      return done({
        limited: true,
        shape: 'window',
        burst: second.accepted,
        limitPerWindow: second.accepted,
        method: 'burst after a refill (the allowance came back whole: a window)',
        missing: [outOfBudget('windowSeconds (and so ratePerSecond)')],
      });
    }
    // A window's next refill is a long wait past its burst; a fast bucket's next token is not.
    const wait2 = refill2.atMs - (second.refusedAtMs ?? second.endMs);
    if (wait2 >= 2 * (second.endMs - second.startMs) + limits.minPollMs) {
      const windowMs = refill2.atMs - refill1.atMs;
      const windowSeconds = round(windowMs / 1000);
      const noisy = blurred(
        windowMs,
        refill1.uncertaintyMs + refill2.uncertaintyMs,
        second.batchMaxMs,
        'the window',
      );
      if (noisy) return cannotTell(noisy, second.accepted);
      return done({
        limited: true,
        shape: 'window',
        burst: second.accepted,
        limitPerWindow: second.accepted,
        windowSeconds,
        ratePerSecond: round(second.accepted / windowSeconds),
        method: `burst after a refill (the allowance came back whole: a window); window = time between two refills (±${round((refill1.uncertaintyMs + refill2.uncertaintyMs) / 1000)} s)`,
        missing: [],
      });
    }
  }

  // 4. A trickle: a token bucket. Count what paced requests get over a while, from empty. The pace
  // must outrun the refill (most paced requests refused), or it would measure itself: if not, faster.
  const oneToken = Math.max(limits.minPollMs, refill1.atMs - (first.refusedAtMs ?? first.endMs));
  // A bucket's next tokens come one per 1/rate, as slowly as the first; a sliding window that waited a
  // whole window (half a second or more) for its first refill gives the rest of the first burst back
  // at the pace it was sent, far quicker. Three refills tell them apart.
  const gaps: number[] = [];
  let gapUncertaintyMs = 0;
  let from = second.refusedAtMs ?? second.endMs;
  for (let i = 0; i < 3; i++) {
    const next = probe.waitForRefill(from, budget);
    if (!next) break;
    gaps.push(next.atMs - from);
    gapUncertaintyMs = Math.max(gapUncertaintyMs, next.uncertaintyMs);
    from = next.atMs;
  }
  const medianGap = gaps.length === 3 ? ([...gaps].sort((a, b) => a - b)[1] as number) : undefined;
  if (medianGap !== undefined && oneToken >= 500 && medianGap < oneToken / 4) {
    return sliding('the allowance came back a few at a time, quickly after a long first wait');
  }
  // A token bucket shows itself by each token coming as slowly as the first (the gaps alike), seen
  // sharply enough to tell: anything else is not evidence of one.
  if (medianGap === undefined) {
    return done({
      limited: true,
      shape: 'unknown',
      burst: first.accepted,
      method: 'one burst and a refill; the refills after it were not seen',
      missing: [outOfBudget('the refills after the second burst (the shape)')],
    });
  }
  if (gapUncertaintyMs > oneToken / 2 || refill1.uncertaintyMs > oneToken / 2) {
    return cannotTell(
      `the refills are known only to ±${ms(Math.max(gapUncertaintyMs, refill1.uncertaintyMs))}, more than half the ${ms(oneToken)} between them`,
      first.accepted,
    );
  }
  if (gaps.some((g) => g < oneToken / 2 || g > oneToken * 2)) {
    return cannotTell(
      `no shape fits: the refills came ${gaps.map(ms).join(', ')} apart after a first wait of ${ms(oneToken)} (a token bucket's come alike, a window's whole)`,
      first.accepted,
    );
  }
  let pace = Math.max(limits.minPollMs / 2, oneToken / 4);
  let paced = 0;
  let spanMs = 0;
  let outran = false;
  for (let attempt = 0; attempt < 3 && probe.stopped === undefined; attempt++) {
    const rateUntil = io.now() + Math.min(Math.max(3000, oneToken * 25), probe.left() / 3);
    let refused = 0;
    let firstAcceptMs: number | undefined;
    let lastAcceptMs: number | undefined;
    paced = 0;
    while (probe.stopped === undefined && io.now() < rateUntil) {
      const answer = probe.poll(pace);
      if (answer && isAccepted(answer.status)) {
        paced++;
        firstAcceptMs ??= answer.sentAtMs;
        lastAcceptMs = answer.sentAtMs;
      } else refused++;
    }
    spanMs = (lastAcceptMs ?? 0) - (firstAcceptMs ?? 0);
    outran = refused >= paced;
    if (outran || pace <= 1) break;
    pace = Math.max(1, pace / 4);
  }
  if (paced < 3 || spanMs <= 0) {
    return done({
      limited: true,
      shape: 'token-bucket',
      burst: first.accepted,
      method: 'burst; the refill came back as a trickle (a token bucket)',
      missing: [outOfBudget(`ratePerSecond (${paced} paced requests accepted)`)],
    });
  }
  const ratePerSecond = ((paced - 1) / spanMs) * 1000;
  // The paced requests must have outrun the refill (or they counted their own pace), and the rate
  // they count must match the gaps between refills.
  if (!outran) {
    return cannotTell(
      `the paced requests never outran the refill (${paced} accepted): they counted their own pace`,
      first.accepted,
    );
  }
  const gapRate = 1000 / medianGap;
  if (Math.abs(ratePerSecond - gapRate) / gapRate > 0.5) {
    return cannotTell(
      `paced requests counted ${round(ratePerSecond)} req/s but the refills came one per ${ms(medianGap)} (${round(gapRate)} req/s)`,
      first.accepted,
    );
  }

  // 5. Let it fill (the first burst bounds the capacity from above), then burst from full.
  const fillMs = (first.accepted / ratePerSecond) * 1000 * 1.2 + 200;
  if (fillMs > probe.left() - 2000) {
    return done({
      limited: true,
      shape: 'token-bucket',
      burst: first.accepted,
      ratePerSecond: round(ratePerSecond),
      method: 'burst, then paced requests counting the refill (a token bucket)',
      missing: [outOfBudget('burst from a full bucket (the first burst is shown, an upper bound)')],
    });
  }
  probe.sleep(fillMs);
  const full = probe.burst();
  // Tokens that arrived while later batches were sent are not the capacity.
  const burst = Math.max(1, Math.round(full.accepted - (ratePerSecond * full.acceptedSpanMs) / 1000));
  return done({
    limited: true,
    shape: 'token-bucket',
    burst,
    ratePerSecond: round(ratePerSecond),
    method: `burst from a full bucket (after ${round(fillMs / 1000, 1)} s idle); rate from ${paced} paced requests accepted over ${round(spanMs / 1000, 1)} s (a token bucket)`,
    missing: full.refused ? [] : [outOfBudget('burst from a full bucket (never refused)')],
  });
}
