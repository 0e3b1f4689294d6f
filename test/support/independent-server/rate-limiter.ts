// A fixed-window limiter per credential (spec: "A rate limiter exists"; values: not shown).
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: number, windowMs = 60_000, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Counts one request; answers the seconds to wait when over the limit. */
  take(
    key: string,
  ):
    | { allowed: true; remaining: number; resetSeconds: number }
    | { allowed: false; retryAfterSeconds: number } {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000));
    if (w.count <= this.limit) return { allowed: true, remaining: this.limit - w.count, resetSeconds };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000)),
    };
  }
}
