// Options of the reference server, their defaults, and the one-line refusal of a bad value.
import { assertKnownFaults } from './faults.ts';

export interface RateLimit {
  /** Requests per window; for a token bucket, its capacity (the burst it allows from full). */
  limit: number;
  /** The window's length (fixed and sliding windows). */
  windowSeconds: number;
  /** Default fixed-window (opened by a bucket's first request). */
  shape?: 'fixed-window' | 'sliding-window' | 'token-bucket';
  /** Token bucket only: tokens added per second (default limit / windowSeconds). */
  refillPerSecond?: number;
}

export const RATE_LIMIT_SHAPES = ['fixed-window', 'sliding-window', 'token-bucket'] as const;

export interface ReferenceServerOptions {
  host?: string; // default 127.0.0.1
  port?: number; // default 0 (ephemeral)
  faults?: readonly string[]; // named faults, see FAULTS
  rateLimit?: RateLimit | null; // per credential; default 600 / 60 s; null switches it off
  tokenTtlSeconds?: number; // default 3600
  control?: boolean; // HTTP control routes under /__control/ (default false)
  latencyMs?: number; // added to every response (benchmarks), default 0
  customers?: number; // default 137
  pageSize?: number; // default 50
  pets?: number; // seeded pets, default 120
  sessionExpiredStatus?: number; // HTTP status of SESSION_EXPIRED, default 401
  seed?: number; // faker seed, default 20261123
  extraFields?: boolean; // alternative choices where the spec is silent (tolerance tests)
  rateLimitHeaders?: boolean; // IETF RateLimit and RateLimit-Policy on every limited answer, default false
  flagWindowSeconds?: number; // how long flag data is cached (default 60, the spec's); short for tests
  flagChangeSeconds?: number; // new-dashboard and beta-exports change on their own this often; 0: never (default)
}

export type ResolvedOptions = Required<Omit<ReferenceServerOptions, 'rateLimit' | 'faults'>> & {
  rateLimit: RateLimit | null;
  faults: readonly string[];
};

export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 600, windowSeconds: 60 };

const DEFAULTS: ResolvedOptions = {
  host: '127.0.0.1',
  port: 0,
  faults: [],
  rateLimit: DEFAULT_RATE_LIMIT,
  tokenTtlSeconds: 3600,
  control: false,
  latencyMs: 0,
  customers: 137,
  pageSize: 50,
  pets: 120,
  sessionExpiredStatus: 401,
  seed: 20261123,
  extraFields: false,
  rateLimitHeaders: false,
  flagWindowSeconds: 60,
  flagChangeSeconds: 0,
};

function integer(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(
      `reference server: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

// Fractions allowed: tests run the flag cache with windows of a second or two.
function seconds(name: string, value: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new Error(
      `reference server: ${name} must be a number of seconds from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

export function checkRateLimit(rateLimit: RateLimit): RateLimit {
  const checked: RateLimit = {
    limit: integer('rateLimit.limit', rateLimit.limit, 1, 1_000_000_000),
    windowSeconds: integer('rateLimit.windowSeconds', rateLimit.windowSeconds, 1, 86_400),
  };
  const { shape, refillPerSecond } = rateLimit;
  if (shape !== undefined) {
    if (!RATE_LIMIT_SHAPES.includes(shape)) {
      throw new Error(
        `reference server: rateLimit.shape must be one of ${RATE_LIMIT_SHAPES.join(', ')}, got ${String(shape)}`,
      );
    }
    checked.shape = shape;
  }
  if (refillPerSecond !== undefined) {
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0 || refillPerSecond > 1_000_000) {
      throw new Error(
        `reference server: rateLimit.refillPerSecond must be a number above 0 and up to 1000000, got ${String(refillPerSecond)}`,
      );
    }
    checked.refillPerSecond = refillPerSecond;
  }
  return checked;
}

export function checkTokenTtl(seconds: number): number {
  return integer('tokenTtlSeconds', seconds, 0, 31_536_000);
}

/** Defaults filled in; throws a one-line Error naming the first bad option. */
export function resolveOptions(options: ReferenceServerOptions = {}): ResolvedOptions {
  const o: ResolvedOptions = {
    ...DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  };
  assertKnownFaults(o.faults);
  integer('port', o.port, 0, 65_535);
  checkTokenTtl(o.tokenTtlSeconds);
  integer('latencyMs', o.latencyMs, 0, 60_000);
  integer('customers', o.customers, 0, 1_000_000);
  integer('pageSize', o.pageSize, 1, 10_000);
  integer('pets', o.pets, 0, 100_000);
  integer('sessionExpiredStatus', o.sessionExpiredStatus, 400, 499);
  integer('seed', o.seed, 0, Number.MAX_SAFE_INTEGER);
  seconds('flagWindowSeconds', o.flagWindowSeconds, 0.1, 86_400);
  if (o.flagChangeSeconds !== 0) seconds('flagChangeSeconds', o.flagChangeSeconds, 0.1, 86_400);
  if (o.rateLimit !== null) o.rateLimit = checkRateLimit(o.rateLimit);
  return { ...o, faults: [...o.faults] };
}
