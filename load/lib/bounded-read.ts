// Which bodies k6 may read, and when. k6 v1.7.0 has no response-size cap: a kept body is read whole
// into memory, and a body with a content coding is inflated whatever the request asked
// (lib/netext/httpext/compression.go, readResponseBody). Go's body reader stops at a declared
// Content-Length, and a discarded body is never held. So a body is read only when an answer to the
// same request declared at most MAX_READ_BYTES with no content coding, and every request is sent
// with `Accept-Encoding: identity` (load/lib/k6/http.ts). A body is read in the same ask when the
// last answer of its kind (a ReadGate per virtual user) declared a readable size; otherwise it is
// asked with the body discarded first, and asked again with the body kept only for what the script
// cannot go on without (a token, the page count, an error that may be SESSION_EXPIRED): a probe's
// polls are never doubled, their count and timing are what it measures.
// What this cannot bound: an answer that differs from the one before it (a small declared size,
// then a huge or endless body) is read until REQUEST_TIMEOUT_MS. Pure: k6 applies it, vitest tests it.
import { MAX_READ_BYTES, UNBOUNDED_METRIC, UNREAD_METRIC } from './bounded.ts';

/** Why a needed body was not read. */
export type Unread = 'undeclared' | 'too-large' | 'encoded';

export const UNREAD_REASONS: Readonly<Record<Unread, string>> = {
  undeclared: 'declared no length (no Content-Length: chunked, or until the connection closes)',
  'too-large': `declared more than ${MAX_READ_BYTES / (1024 * 1024)} MiB`,
  encoded: 'had a content coding (k6 would inflate it without a cap, though identity was asked)',
};

/** What a script reads a body for, and whether a discarded first ask may be followed by a second. */
export const READ_PURPOSES = {
  token: { judged: 'the token answer (no token: the run stops)', askAgain: true },
  renewal: { judged: 'whether an error answer was SESSION_EXPIRED (no renewal without it)', askAgain: true },
  'page-count': { judged: 'the page count (users read page 1 only)', askAgain: true },
  flags: { judged: 'the flag data of a poll (no change seen in it)', askAgain: false },
  'limit-poll': { judged: 'the error body of a 429 (its shape not judged)', askAgain: false },
  clock: {
    judged: "the reference server's clock (flag-cache polls not placed: the run stops)",
    askAgain: true,
  },
} as const;
export type ReadPurpose = keyof typeof READ_PURPOSES;

export type Headers = Record<string, string> | undefined;

/** A header's value whatever the case of its name (k6 gives Go's canonical names). */
export function header(headers: Headers, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * Why the body of this answer must not be read, or undefined when it may be (Go then stops at its
 * declared length). Status 0 (no answer: a timeout, a refused connection) says nothing: 'no-answer'.
 */
export function whyUnreadable(status: number, headers: Headers): Unread | 'no-answer' | undefined {
  if (status === 0) return 'no-answer';
  // No body by definition (1xx, 204, 304): nothing to bound.
  if (status < 200 || status === 204 || status === 304) return undefined;
  const codings = header(headers, 'content-encoding')?.split(',') ?? [];
  if (codings.some((c) => !['', 'identity'].includes(c.trim().toLowerCase()))) return 'encoded';
  // k6 joins repeated headers with ', ': '12, 12' is not one declared length.
  const length = header(headers, 'content-length')?.trim();
  if (length === undefined || !/^\d{1,15}$/.test(length)) return 'undeclared';
  return Number(length) <= MAX_READ_BYTES ? undefined : 'too-large';
}

/**
 * One kind of answer, per virtual user (the token route, a probe's poll): whether the next one may
 * be read in the same ask, learnt from the last answer of the kind, read or not.
 */
export class ReadGate {
  private state: 'unknown' | 'readable' | Unread = 'unknown';

  /** The last answer of this kind declared a readable size: the next is read in the same ask. */
  open(): boolean {
    return this.state === 'readable';
  }

  /** Learns from an answer of this kind; an answer with no status (a timeout) teaches nothing. */
  learn(status: number, headers: Headers): Unread | 'no-answer' | undefined {
    const why = whyUnreadable(status, headers);
    if (why !== 'no-answer') this.state = why ?? 'readable';
    return why;
  }
}

/** What to do once an answer came: use its body, ask again with the body kept, or go on without it. */
export type ReadStep =
  | { step: 'use' }
  | { step: 'ask-again' }
  /** unread: counted, the script says what was not judged; absent: nothing to count (not wanted, no answer, a poll that only taught the gate). */
  | { step: 'without'; unread?: Unread };

/**
 * The decision after one ask. kept: this ask kept its body (it is read, whatever this answer's own
 * headers say: the residual the docs own). purpose: what the body is needed for, or undefined when
 * this answer's body is not wanted (a success of a user's call).
 */
export function afterAsk(
  kept: boolean,
  why: Unread | 'no-answer' | undefined,
  purpose: ReadPurpose | undefined,
): ReadStep {
  if (kept) return { step: 'use' };
  if (purpose === undefined || why === 'no-answer') return { step: 'without' };
  if (why !== undefined) return { step: 'without', unread: why };
  return READ_PURPOSES[purpose].askAgain ? { step: 'ask-again' } : { step: 'without' };
}

/** A sub-metric per reason and per purpose, so the summary data carries each count. */
export function unreadThresholds(purposes: readonly ReadPurpose[]): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {};
  for (const why of Object.keys(UNREAD_REASONS)) thresholds[`${UNREAD_METRIC}{why:${why}}`] = ['count>=0'];
  for (const purpose of purposes) thresholds[`${UNREAD_METRIC}{purpose:${purpose}}`] = ['count>=0'];
  return thresholds;
}

/** Whether a metric is one of those sub-metrics (plumbing, not a finding of its own). */
export function isUnreadSubMetric(name: string): boolean {
  return name.startsWith(`${UNREAD_METRIC}{`);
}

type Metrics = Record<string, { values: Record<string, number> } | undefined>;

/**
 * Why the run proved nothing, when no token answer could be read (the run stopped before any user
 * ran): inconclusive, not failed, since a conformant target may send its token chunked. undefined
 * otherwise.
 */
export function unreadTokenStop(metrics: Metrics): string | undefined {
  if ((metrics[`${UNREAD_METRIC}{purpose:token}`]?.values.count ?? 0) === 0) return undefined;
  return `no token answer could be read (it declared no length, more than ${MAX_READ_BYTES / (1024 * 1024)} MiB or a content coding), so nothing was load-tested: k6 cannot cap a read (docs/misbehaving-targets.md)`;
}

/** The report's note on bodies not read: how many, why, and what was therefore not judged. */
export function unreadNote(metrics: Metrics): string | undefined {
  const count = (name: string) => metrics[name]?.values.count ?? 0;
  const total = count(UNREAD_METRIC);
  if (total === 0) return undefined;
  const whys = (Object.keys(UNREAD_REASONS) as Unread[])
    .filter((why) => count(`${UNREAD_METRIC}{why:${why}}`) > 0)
    .map((why) => `${count(`${UNREAD_METRIC}{why:${why}}`)} ${UNREAD_REASONS[why]}`);
  const purposes = (Object.keys(READ_PURPOSES) as ReadPurpose[])
    .filter((p) => count(`${UNREAD_METRIC}{purpose:${p}}`) > 0)
    .map((p) => `${READ_PURPOSES[p].judged}: ${count(`${UNREAD_METRIC}{purpose:${p}}`)}`);
  return [
    `${total} answer${total === 1 ? '' : 's'} not read, so not judged`,
    whys.length ? ` (${whys.join('; ')})` : '',
    purposes.length ? `. Not judged: ${purposes.join('; ')}` : '',
    `. k6 cannot cap a read: a body is read only when its answer declares at most ${MAX_READ_BYTES / (1024 * 1024)} MiB (Content-Length) with no content coding (docs/misbehaving-targets.md).`,
  ].join('');
}

/** The report's note on bodies read although their own answer did not declare a readable size. */
export function unboundedNote(metrics: Metrics): string | undefined {
  const total = metrics[UNBOUNDED_METRIC]?.values.count ?? 0;
  if (total === 0) return undefined;
  return `${total} bod${total === 1 ? 'y was' : 'ies were'} read although ${total === 1 ? 'its' : 'their'} own answer declared no length, more than ${MAX_READ_BYTES / (1024 * 1024)} MiB or a content coding (the answer before declared a readable size): k6 held ${total === 1 ? 'it' : 'them'} whole until ${total === 1 ? 'it' : 'they'} ended or REQUEST_TIMEOUT_MS. A target that changes its answers between asks is bounded only by the timeout (docs/misbehaving-targets.md).`;
}
