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

/**
 * The open choices the generated requests touch: where the spec says "not shown", this server's
 * answer (the first value) and the other conformant ones, each switchable (`choices`, `--choice
 * NAME=VALUE`), so the suite can be run against every one of them (src/runner/variants.ts).
 * `notShown` is the spec's silence the choice answers; `npm run reference-server -- --list-choices
 * --markdown` prints them for docs/reference-server.md.
 */
export const CHOICES = {
  'request-media-type': {
    values: ['json-only', 'any'],
    notShown: 'request media types (it says only "JSON is the payload format")',
    answers:
      '`json-only`: a body of another `Content-Type` refused with 415 `UNSUPPORTED_MEDIA_TYPE`; `any`: every body read as JSON',
  },
  'unknown-pet-fields': {
    values: ['ignore', 'store', 'refuse'],
    notShown: 'fields of a Pet beyond id, name, tag and status',
    answers:
      '`ignore`: accepted, not stored; `store`: stored and answered back; `refuse`: 400 `VALIDATION_ERROR` naming the field',
  },
  'limit-above-100': {
    values: ['refuse', 'clamp'],
    notShown: 'the answer to a `limit` above the maximum of 100',
    answers: '`refuse`: 400; `clamp`: answered as `limit=100`',
  },
  'limit-zero': {
    values: ['refuse', 'empty'],
    notShown: 'a minimum of `limit`',
    answers: '`refuse`: `limit=0` is 400; `empty`: answered with no pets',
  },
  'limit-negative': {
    values: ['refuse', 'default'],
    notShown: 'a minimum of `limit` (only "maximum 100" is shown)',
    answers: '`refuse`: `limit=-1` is 400; `default`: read as no limit (100 pets)',
  },
  'page-below-one': {
    values: ['400', '422'],
    notShown: 'the answer to page 0 or a negative page (only a page above `total_pages` is shown: 422)',
    answers: '`400` or `422`, `VALIDATION_ERROR` either way',
  },
  'integer-strings': {
    values: ['refuse', 'read'],
    notShown: 'whether a Pet id written as digits (`"7"`) is refused',
    answers: '`refuse`: 400; `read`: stored as the integer 7',
  },
  'empty-query-value': {
    values: ['refuse', 'absent'],
    notShown: 'the answer to an empty `page=` or `limit=`',
    answers: '`refuse`: 400; `absent`: as if not given (the first page, 100 pets)',
  },
  'repeated-query': {
    values: ['refuse', 'first', 'last'],
    notShown: 'the answer to a repeated query parameter (`limit=1&limit=2`)',
    answers: '`refuse`: 400; `first` or `last`: that value read',
  },
  'number-notation': {
    values: ['refuse', 'read'],
    notShown:
      'how an integer `page` or `limit` may be written (`1e2`, `1.0`; leading zeros are read either way)',
    answers: '`refuse`: 400; `read`: any integer a number parser reads (`limit=1e2` is 100)',
  },
  'pet-text': {
    values: ['bounded', 'any'],
    notShown: 'bounds of a Pet name or tag',
    answers:
      '`bounded`: a blank name, or a name or tag over 200 characters, is 400; `any`: every string stored',
  },
  'customers-auth': {
    values: ['both', 'api-key'],
    notShown:
      'whether GET /v1/customers takes a bearer token ("API key or bearer token as the route allows"; the token\'s shown permissions name no customers)',
    answers: '`both`: either scheme; `api-key`: a bearer token refused with 403 `FORBIDDEN`',
  },
  'errors-field': {
    values: ['always', 'several-only'],
    notShown:
      'whether an error body with one message carries `errors` (the spec: "filled when the error has several messages"; only `message` is "always present")',
    answers:
      '`always`: `errors` on every error body (empty with one message); `several-only`: only when it lists messages (and on the 422 beyond the last page, where the spec shows it empty)',
  },
  'pet-ids': {
    values: ['safe', 'int64'],
    notShown:
      'which ids a server stores and in what order GET /pets lists them (the spec: `id` "integer, int64"; no order shown)',
    answers:
      '`safe`: ids from 1 to 2^53-1, listed lowest first (others 400); `int64`: every int64 stored exactly (9007199254740993, 2^63-1, -2^63 seeded beside the others), listed highest first',
  },
  'taken-pet-id': {
    values: ['refuse', 'replace'],
    notShown:
      'what POST /pets answers for an id already taken (only "201 with no body shown" for a valid Pet)',
    answers:
      '`refuse`: 409 `CONFLICT`, the pet stored first kept as it was; `replace`: 201, the pet sent stored in its place',
  },
  'unknown-token-fields': {
    values: ['ignore', 'refuse'],
    notShown: 'fields of the token request beyond `client_id` and `client_secret`',
    answers: '`ignore`; `refuse`: 400 `VALIDATION_ERROR` naming the field',
  },
} as const;

export type ChoiceName = keyof typeof CHOICES;
export type Choices = { -readonly [K in ChoiceName]: (typeof CHOICES)[K]['values'][number] };

export const DEFAULT_CHOICES = Object.fromEntries(
  Object.entries(CHOICES).map(([name, c]) => [name, c.values[0]]),
) as Choices;

/** A choice checked: one line naming the choice and its values when it is not one. */
export function checkChoice(name: string, value: unknown): [ChoiceName, string] {
  const choice = (CHOICES as Record<string, { values: readonly string[] }>)[name];
  if (!choice) {
    throw new Error(
      `reference server: unknown choice ${JSON.stringify(name)} (choices: ${Object.keys(CHOICES).join(', ')})`,
    );
  }
  if (typeof value !== 'string' || !choice.values.includes(value)) {
    throw new Error(
      `reference server: choice ${name} must be one of ${choice.values.join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return [name as ChoiceName, value];
}

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
  choices?: Partial<Choices>; // other conformant answers where the spec is silent (CHOICES; tolerance variants)
  extraClients?: readonly { clientId: string; clientSecret: string }[]; // more clients of the default user, each its own limiter bucket (split load runs)
}

export type ResolvedOptions = Required<Omit<ReferenceServerOptions, 'rateLimit' | 'faults' | 'choices'>> & {
  rateLimit: RateLimit | null;
  faults: readonly string[];
  choices: Choices;
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
  choices: DEFAULT_CHOICES,
  extraClients: [],
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
  const choices = { ...DEFAULT_CHOICES };
  for (const [name, value] of Object.entries(options.choices ?? {})) {
    if (value === undefined) continue;
    const [checked, v] = checkChoice(name, value);
    (choices as Record<string, string>)[checked] = v;
  }
  return { ...o, faults: [...o.faults], choices };
}
