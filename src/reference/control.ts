// The control API, in process: what tests use to move time, switch features and faults, expire
// sessions, tune the limiter and read request counts. The HTTP control routes call the same object.
import type { NewApiKeyOptions } from './api-keys.ts';
import { isFeature } from './features.ts';
import { checkRateLimit, checkTokenTtl, DEFAULT_RATE_LIMIT, type RateLimit } from './options.ts';
import type { RequestCounts } from './request-counts.ts';
import type { ServerState } from './state.ts';

export interface ReferenceControl {
  /** Moves the virtual clock forward (flag cache, token expiry, rate-limit windows). */
  advanceClock(seconds: number): void;
  /** The virtual time. */
  now(): Date;
  setFeature(name: string, enabled: boolean): void;
  /** Expires one token, or every token when none is named; answers how many were expired. */
  expireSessions(accessToken?: string): number;
  /** Lifetime of the tokens issued from now on. */
  setTokenTtl(seconds: number): void;
  /** The default per-credential limit; null switches the limiter off. */
  setRateLimit(limit: number | null, windowSeconds?: number): void;
  /** A fresh key tied to the default user, optionally with its own limit or pinned to an address. */
  createApiKey(options?: NewApiKeyOptions): { id: string; secret: string };
  setFaults(names: readonly string[]): void;
  faults(): string[];
  requestCounts(): RequestCounts;
  resetCounts(): void;
  /** Clock, features, faults, data, keys, tokens, limits and counts back to the start state. */
  reset(): void;
}

export function createControl(state: ServerState): ReferenceControl {
  // Limits set through the control API (a throwaway key's quota, a new server limit) take the
  // server's limiter shape: a server started as a token bucket stays one for the tests' keys too.
  const shape = state.options.rateLimit?.shape;
  const inServerShape = (limit: RateLimit): RateLimit =>
    shape && !limit.shape ? { ...limit, shape } : limit;
  return {
    advanceClock: (seconds) => state.clock.advance(seconds),
    now: () => new Date(state.now()),
    setFeature(name, enabled) {
      if (!isFeature(name)) throw new Error(`unknown feature ${JSON.stringify(name)}`);
      if (typeof enabled !== 'boolean') throw new Error('enabled must be true or false');
      state.features.set(name, enabled);
    },
    expireSessions: (accessToken) => state.tokens.expire(accessToken),
    setTokenTtl(seconds) {
      state.tokenTtlSeconds = checkTokenTtl(seconds);
    },
    setRateLimit(limit, windowSeconds) {
      state.rateLimit =
        limit === null
          ? null
          : checkRateLimit(
              inServerShape({
                limit,
                windowSeconds:
                  windowSeconds ?? state.rateLimit?.windowSeconds ?? DEFAULT_RATE_LIMIT.windowSeconds,
              }),
            );
      // New limits start with fresh windows.
      state.limiter.clear();
    },
    createApiKey(options = {}) {
      const key = state.apiKeys.create({
        ...(options.rateLimit ? { rateLimit: checkRateLimit(inServerShape(options.rateLimit)) } : {}),
        ...(options.pinnedAddress ? { pinnedAddress: options.pinnedAddress } : {}),
      });
      return { id: key.id, secret: key.secret };
    },
    setFaults: (names) => state.faults.set(names),
    faults: () => state.faults.list(),
    requestCounts: () => state.counts.snapshot(),
    resetCounts: () => state.counts.reset(),
    reset: () => state.reset(),
  };
}
