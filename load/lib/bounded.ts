// What keeps every k6 script bounded against a target that misbehaves, as k6 options and names the
// scripts and their reports share. Pure: vitest reads it, load/lib/k6/http.ts applies it.
// - no redirect is followed (maxRedirects 0 here, `redirects: 0` on every request): the credentials
//   would go along to wherever the target points;
// - response bodies are discarded unless a request asks to keep its own (k6 holds a kept body whole
//   in memory and has no size cap: a 200 MB answer per user would take gigabytes), and a body is
//   kept only when an answer to it declared at most MAX_READ_BYTES with no content coding
//   (load/lib/bounded-read.ts decides, load/lib/k6/http.ts readBounded() asks);
// - a refusal inside an iteration (a request to another origin, a token that cannot be had) stops
//   the run as failed, in one console line (load/lib/k6/iteration.ts).

export const BOUNDED_OPTIONS = { maxRedirects: 0, discardResponseBodies: true } as const;

/**
 * The largest body a script reads (1 MiB): a token, an error body, the flag data and a page of 50
 * customers are a few KiB. Go stops reading at a declared Content-Length, so this bounds a read.
 */
export const MAX_READ_BYTES = 1024 * 1024;

/** Counter of answers that were redirects (not followed); each script holds it at 0. */
export const REDIRECTS_METRIC = 'load_redirects_not_followed';

/** Counter of answers whose body the script needed but did not read (tags: why, purpose). */
export const UNREAD_METRIC = 'load_bodies_not_read';

/**
 * Counter of bodies read although their own answer declared no readable size (the answer before it
 * did): the residual a stock k6 cannot close, made visible in the report.
 */
export const UNBOUNDED_METRIC = 'load_bodies_read_unbounded';

/** Counter of iterations stopped by a refusal (another origin, no token); any stops the run. */
export const REFUSALS_METRIC = 'load_refusals';

/** A k6 threshold (the string form, or the object form that can stop the run). */
export type ThresholdSpec = string | { threshold: string; abortOnFail: boolean };

export const BOUNDED_THRESHOLDS: Readonly<Record<string, ThresholdSpec[]>> = {
  [REDIRECTS_METRIC]: ['count==0'],
  // A refusal is a fault of the target (or of the run's configuration): nothing more is learnt by
  // going on, so the first one stops the run (exit 99, the threshold failed in the report).
  [REFUSALS_METRIC]: [{ threshold: 'count==0', abortOnFail: true }],
};

/** The failed check a redirect leaves in the report: its status and the Location's origin only. */
export function redirectCheckName(status: number, where: string): string {
  return `answer is not a redirect: ${status} to ${where} (not followed)`;
}
