// The limiter shapes the load probe is proved against: each one's allowance, refill and headers,
// on a virtual clock (milliseconds passed in), so nothing here waits.
import { describe, expect, it } from 'vitest';
import { RateLimiter, rateLimitHeaders } from '../../src/reference/rate-limiter.ts';

/** How many of n requests at `at` ms are accepted. */
function burst(
  limiter: RateLimiter,
  limit: Parameters<RateLimiter['hit']>[1],
  at: number,
  n: number,
): number {
  let accepted = 0;
  for (let i = 0; i < n; i++) if (limiter.hit('k', limit, at).allowed) accepted++;
  return accepted;
}

describe('RateLimiter', () => {
  it('fixed window: the limit per window, all of it back when the window (opened by the first request) ends', () => {
    const limiter = new RateLimiter();
    const limit = { limit: 5, windowSeconds: 2 };
    expect(burst(limiter, limit, 1000, 9)).toBe(5);
    expect(burst(limiter, limit, 2999, 3)).toBe(0);
    const refused = limiter.hit('k', limit, 2500);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 500 });
    expect(burst(limiter, limit, 3000, 9)).toBe(5);
  });

  it('sliding window: a request is free again windowSeconds after it was accepted', () => {
    const limiter = new RateLimiter();
    const limit = { limit: 4, windowSeconds: 1, shape: 'sliding-window' as const };
    expect(burst(limiter, limit, 0, 2)).toBe(2);
    expect(burst(limiter, limit, 500, 5)).toBe(2);
    expect(limiter.hit('k', limit, 900)).toMatchObject({ allowed: false, retryAfterMs: 100 });
    // At 1000 the two of t=0 have left; those of t=500 have not.
    expect(burst(limiter, limit, 1000, 5)).toBe(2);
    expect(burst(limiter, limit, 1500, 5)).toBe(2);
  });

  it('token bucket: a burst of its capacity, then one request per 1/refill s', () => {
    const limiter = new RateLimiter();
    const limit = { limit: 10, windowSeconds: 1, shape: 'token-bucket' as const, refillPerSecond: 4 };
    expect(burst(limiter, limit, 0, 20)).toBe(10);
    expect(limiter.hit('k', limit, 100)).toMatchObject({ allowed: false, retryAfterMs: 150 });
    expect(burst(limiter, limit, 250, 5)).toBe(1);
    expect(burst(limiter, limit, 1250, 10)).toBe(4);
    // Full again after capacity / refill seconds, never more than the capacity.
    expect(burst(limiter, limit, 60_000, 30)).toBe(10);
  });

  it('headers announce the policy (q per w) and what is left (r) until the reset (t)', () => {
    const limiter = new RateLimiter();
    const limit = { limit: 3, windowSeconds: 10 };
    const verdict = limiter.hit('k', limit, 0);
    expect(rateLimitHeaders(limit, verdict)).toEqual({
      'ratelimit-policy': '"default";q=3;w=10',
      ratelimit: '"default";r=2;t=10',
    });
    const bucket = { limit: 20, windowSeconds: 1, shape: 'token-bucket' as const, refillPerSecond: 5 };
    expect(rateLimitHeaders(bucket, new RateLimiter().hit('k', bucket, 0))['ratelimit-policy']).toBe(
      '"default";q=20;w=4',
    );
  });
});
