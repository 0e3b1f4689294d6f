// The rate limiter keyed by credential, in the shapes real deployments use, so the load probe can be
// shown to measure any of them: a fixed window (opened by a bucket's first request), a sliding
// window (a log of the accepted requests of the last windowSeconds) and a token bucket (capacity
// `limit`, refilled continuously at refillPerSecond). All run on the virtual clock.
import type { IncomingMessage } from 'node:http';
import type { RateLimit } from './options.ts';

export type Verdict =
  | { allowed: true; remaining: number; resetMs: number }
  | { allowed: false; retryAfterMs: number; remaining: 0; resetMs: number };

type Bucket =
  | { shape: 'fixed-window'; start: number; count: number }
  | { shape: 'sliding-window'; accepted: number[] }
  | { shape: 'token-bucket'; tokens: number; at: number };

// Anonymous buckets are keyed by address: past this many, idle buckets are swept.
const SWEEP_ABOVE = 10_000;

export const shapeOf = (limit: RateLimit) => limit.shape ?? 'fixed-window';

/** Tokens per second of a token bucket; for windows, the average rate they allow. */
export function refillPerSecond(limit: RateLimit): number {
  return limit.refillPerSecond ?? limit.limit / limit.windowSeconds;
}

/** What the server announces in RateLimit-Policy's w: the window, or a full refill of the bucket. */
export function policyWindowSeconds(limit: RateLimit): number {
  return shapeOf(limit) === 'token-bucket'
    ? Math.max(1, Math.ceil(limit.limit / refillPerSecond(limit)))
    : limit.windowSeconds;
}

export class RateLimiter {
  #buckets = new Map<string, Bucket>();

  hit(key: string, limit: RateLimit, now: number): Verdict {
    const shape = shapeOf(limit);
    let bucket = this.#buckets.get(key);
    if (!bucket || bucket.shape !== shape) {
      if (!bucket && this.#buckets.size >= SWEEP_ABOVE) this.#sweep(now, limit);
      bucket = fresh(shape, limit, now);
      this.#buckets.set(key, bucket);
    }
    if (bucket.shape === 'fixed-window') return fixedWindow(bucket, limit, now);
    if (bucket.shape === 'sliding-window') return slidingWindow(bucket, limit, now);
    return tokenBucket(bucket, limit, now);
  }

  #sweep(now: number, limit: RateLimit): void {
    const idleMs = policyWindowSeconds(limit) * 1000;
    for (const [key, bucket] of this.#buckets) {
      const last =
        bucket.shape === 'fixed-window'
          ? bucket.start
          : bucket.shape === 'sliding-window'
            ? (bucket.accepted.at(-1) ?? 0)
            : bucket.at;
      if (now >= last + idleMs) this.#buckets.delete(key);
    }
  }

  clear(): void {
    this.#buckets.clear();
  }
}

function fresh(shape: Bucket['shape'], limit: RateLimit, now: number): Bucket {
  if (shape === 'fixed-window') return { shape, start: now, count: 0 };
  if (shape === 'sliding-window') return { shape, accepted: [] };
  return { shape, tokens: limit.limit, at: now };
}

function fixedWindow(bucket: Bucket & { shape: 'fixed-window' }, limit: RateLimit, now: number): Verdict {
  const windowMs = limit.windowSeconds * 1000;
  if (now >= bucket.start + windowMs) {
    bucket.start = now;
    bucket.count = 0;
  }
  const resetMs = bucket.start + windowMs - now;
  if (bucket.count >= limit.limit) return { allowed: false, retryAfterMs: resetMs, remaining: 0, resetMs };
  bucket.count++;
  return { allowed: true, remaining: limit.limit - bucket.count, resetMs };
}

function slidingWindow(bucket: Bucket & { shape: 'sliding-window' }, limit: RateLimit, now: number): Verdict {
  const windowMs = limit.windowSeconds * 1000;
  const since = now - windowMs;
  let drop = 0;
  while (drop < bucket.accepted.length && (bucket.accepted[drop] as number) <= since) drop++;
  if (drop > 0) bucket.accepted.splice(0, drop);
  if (bucket.accepted.length >= limit.limit) {
    // The oldest accepted request leaves the window first.
    const resetMs = (bucket.accepted[0] as number) + windowMs - now;
    return { allowed: false, retryAfterMs: resetMs, remaining: 0, resetMs };
  }
  bucket.accepted.push(now);
  return { allowed: true, remaining: limit.limit - bucket.accepted.length, resetMs: windowMs };
}

function tokenBucket(bucket: Bucket & { shape: 'token-bucket' }, limit: RateLimit, now: number): Verdict {
  const rate = refillPerSecond(limit);
  bucket.tokens = Math.min(limit.limit, bucket.tokens + (Math.max(0, now - bucket.at) * rate) / 1000);
  bucket.at = now;
  const fullInMs = () => ((limit.limit - bucket.tokens) / rate) * 1000;
  if (bucket.tokens < 1) {
    return {
      allowed: false,
      retryAfterMs: ((1 - bucket.tokens) / rate) * 1000,
      remaining: 0,
      resetMs: fullInMs(),
    };
  }
  bucket.tokens -= 1;
  return { allowed: true, remaining: Math.floor(bucket.tokens), resetMs: fullInMs() };
}

/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of one answer, when the server
 * announces them: the policy (quota q per w seconds) and what is left (r) and when it resets (t).
 */
export function rateLimitHeaders(limit: RateLimit, verdict: Verdict): Record<string, string> {
  const reset = Math.max(0, Math.ceil(verdict.resetMs / 1000));
  return {
    'ratelimit-policy': `"default";q=${limit.limit};w=${policyWindowSeconds(limit)}`,
    ratelimit: `"default";r=${verdict.remaining};t=${reset}`,
  };
}

/**
 * Headers the limiter adds to the answer of a request, whatever the route replies: limitRate sets
 * them, the HTTP layer merges them. A WeakMap, so nothing outlives its request.
 */
export const limiterHeaders = new WeakMap<IncomingMessage, Record<string, string>>();
