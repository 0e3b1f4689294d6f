// What a target's answers declare about its rate limiter: the IETF RateLimit headers (both the
// structured-field form of draft-ietf-httpapi-ratelimit-headers-07 and later, `RateLimit-Policy:
// "p";q=20;w=1` and `RateLimit: "p";r=19;t=1`, and the older `RateLimit-Limit`/`-Remaining`/`-Reset`
// and `RateLimit: limit=20, remaining=19, reset=1`), the common X-RateLimit-* headers and
// Retry-After. Pure: the probe compares what is declared with what it measures.
import { retryAfterSeconds } from '../../common/retry-after.ts';

export interface DeclaredLimit {
  /** Requests allowed per window (q, X-RateLimit-Limit, ...). */
  quota?: number;
  /** The window the quota applies to, in seconds (w). */
  windowSeconds?: number;
  /** Requests left, as last announced. */
  remaining?: number;
  /** Seconds until the quota is restored, as last announced. */
  resetSeconds?: number;
  /** Longest Retry-After seen on a refusal. */
  retryAfterSeconds?: number;
  /** The header names the figures came from. */
  sources: string[];
}

export type HeaderMap = Readonly<Record<string, string | undefined>>;

/** Case-insensitive header lookup (k6 canonicalises names, tests may not). */
export function header(headers: HeaderMap, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

const nonNegative = (text: string | undefined): number | undefined => {
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
};

/** Parameters of the first item of a structured-field list, or of a `k=v, k=v` dictionary. */
function parameters(value: string): Record<string, string> {
  const first = value.split(',').length > 1 && /^\s*"/.test(value) ? (value.split(',')[0] ?? '') : value;
  const out: Record<string, string> = {};
  for (const part of first.split(/[;,]/)) {
    const match = /^\s*([a-z][a-z0-9_-]*)\s*=\s*"?([^";,]*)"?\s*$/i.exec(part);
    if (match) out[(match[1] as string).toLowerCase()] = (match[2] as string).trim();
    else if (/^\s*\d+\s*$/.test(part) && out.q === undefined) out.q = part.trim(); // `20;w=1`
  }
  return out;
}

/**
 * X-RateLimit-Reset is either seconds to wait or a Unix time (GitHub's style): anything past a year
 * of seconds is read as a moment.
 */
function resetSeconds(raw: string | undefined, nowMs: number): number | undefined {
  const value = nonNegative(raw);
  if (value === undefined) return undefined;
  return value > 31_536_000 ? Math.max(0, Math.ceil(value - nowMs / 1000)) : value;
}

/** Folds one answer's headers into what is known so far. */
export function declaredFrom(
  previous: DeclaredLimit,
  headers: HeaderMap,
  status: number,
  nowMs: number,
): DeclaredLimit {
  const next: DeclaredLimit = { ...previous, sources: [...previous.sources] };
  const note = (source: string) => {
    if (!next.sources.includes(source)) next.sources.push(source);
  };
  const policy = header(headers, 'ratelimit-policy');
  if (policy !== undefined) {
    const p = parameters(policy);
    const quota = nonNegative(p.q ?? p.limit);
    if (quota !== undefined) {
      next.quota = quota;
      note('RateLimit-Policy');
    }
    const w = nonNegative(p.w ?? p.window);
    if (w !== undefined) next.windowSeconds = w;
  }
  const combined = header(headers, 'ratelimit');
  if (combined !== undefined) {
    const p = parameters(combined);
    const remaining = nonNegative(p.r ?? p.remaining);
    const reset = nonNegative(p.t ?? p.reset);
    if (remaining !== undefined) next.remaining = remaining;
    if (reset !== undefined) next.resetSeconds = reset;
    const quota = nonNegative(p.limit);
    if (quota !== undefined && next.quota === undefined) next.quota = quota;
    if (remaining !== undefined || reset !== undefined) note('RateLimit');
  }
  for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
    const limit = nonNegative(header(headers, `${prefix}limit`));
    const remaining = nonNegative(header(headers, `${prefix}remaining`));
    const reset = resetSeconds(header(headers, `${prefix}reset`), nowMs);
    const name = prefix === 'x-ratelimit-' ? 'X-RateLimit-*' : 'RateLimit-Limit/-Remaining/-Reset';
    if (limit !== undefined && policy === undefined) next.quota = limit;
    if (remaining !== undefined) next.remaining = remaining;
    if (reset !== undefined) next.resetSeconds = reset;
    if (limit !== undefined || remaining !== undefined || reset !== undefined) note(name);
  }
  if (status === 429) {
    const wait = retryAfterSeconds(header(headers, 'retry-after'), nowMs);
    if (wait !== undefined) {
      next.retryAfterSeconds = Math.max(next.retryAfterSeconds ?? 0, wait);
      note('Retry-After');
    }
  }
  return next;
}

export const NOTHING_DECLARED: DeclaredLimit = { sources: [] };
