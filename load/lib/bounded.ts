// What keeps every k6 script bounded against a target that misbehaves, as k6 options and names the
// scripts and their reports share. Pure: vitest reads it, load/lib/k6/http.ts applies it.
// - no redirect is followed (maxRedirects 0 here, `redirects: 0` on every request): the credentials
//   would go along to wherever the target points;
// - response bodies are discarded unless a request asks to keep its own (k6 holds a kept body whole
//   in memory and has no size cap: a 200 MB answer per user would take gigabytes).

export const BOUNDED_OPTIONS = { maxRedirects: 0, discardResponseBodies: true } as const;

/** Counter of answers that were redirects (not followed); each script holds it at 0. */
export const REDIRECTS_METRIC = 'load_redirects_not_followed';

export const BOUNDED_THRESHOLDS: Readonly<Record<string, string[]>> = { [REDIRECTS_METRIC]: ['count==0'] };

/** The failed check a redirect leaves in the report: its status and the Location's origin only. */
export function redirectCheckName(status: number, where: string): string {
  return `answer is not a redirect: ${status} to ${where} (not followed)`;
}
