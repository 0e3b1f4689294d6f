// A fixed-window rate limiter keyed by credential: the window opens with a bucket's first request
// and lasts windowSeconds of virtual time.
import type { RateLimit } from './options.ts';

export type Verdict = { allowed: true } | { allowed: false; retryAfterMs: number };

interface Bucket {
  start: number;
  count: number;
}

// Anonymous buckets are keyed by address: past this many, ended windows are swept.
const SWEEP_ABOVE = 10_000;

export class FixedWindowLimiter {
  #buckets = new Map<string, Bucket>();

  hit(key: string, limit: RateLimit, now: number): Verdict {
    const windowMs = limit.windowSeconds * 1000;
    let bucket = this.#buckets.get(key);
    if (!bucket || now >= bucket.start + windowMs) {
      if (!bucket && this.#buckets.size >= SWEEP_ABOVE) this.#sweep(now, windowMs);
      bucket = { start: now, count: 0 };
      this.#buckets.set(key, bucket);
    }
    if (bucket.count >= limit.limit) return { allowed: false, retryAfterMs: bucket.start + windowMs - now };
    bucket.count++;
    return { allowed: true };
  }

  #sweep(now: number, windowMs: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now >= bucket.start + windowMs) this.#buckets.delete(key);
    }
  }

  clear(): void {
    this.#buckets.clear();
  }
}
