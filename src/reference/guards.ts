// What stands before a route's work: authentication (API key or bearer), the rate limiter and the
// feature that guards the route. Each refusal is an ApiError rendered as the error body.
import { ApiError } from './api-error.ts';
import type { ApiKey } from './api-keys.ts';
import type { RequestContext } from './context.ts';
import { DEFAULT_CREDENTIALS, DEFAULT_USER_ID } from './credentials.ts';
import type { Feature } from './features.ts';
import type { RateLimit } from './options.ts';
import { limiterHeaders, rateLimitHeaders, refillPerSecond, shapeOf } from './rate-limiter.ts';
import { sameSecret } from './secrets.ts';

export interface Principal {
  scheme: 'apiKey' | 'bearer' | 'none';
  userId: string;
  /** The rate-limit bucket: the credential, or the address for a caller without one. */
  bucket: string;
  rateLimit?: RateLimit;
}

/** For each scheme, 'accept' or the refusal a route answers to it. */
export interface SchemePolicy {
  apiKey: 'accept' | ApiError;
  bearer: 'accept' | ApiError;
  /** The refusal of a request that carries no credentials. */
  missing: string;
}

export const bearerOnly = (): ApiError =>
  new ApiError(
    403,
    'FORBIDDEN',
    'this route accepts only a bearer token (Authorization: Bearer <access_token>)',
  );

const header = (ctx: RequestContext, name: string): string | undefined => {
  const value = ctx.req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const anonymousBucket = (ctx: RequestContext) => `address:${ctx.address}`;

function defaultClientPrincipal(ctx: RequestContext): Principal {
  return { scheme: 'none', userId: DEFAULT_USER_ID, bucket: anonymousBucket(ctx) };
}

function sessionExpired(ctx: RequestContext): ApiError {
  const { options } = ctx.state;
  return new ApiError(
    options.sessionExpiredStatus,
    'SESSION_EXPIRED',
    'the session has expired: obtain a new access token from POST /v1/auth/token',
  );
}

function apiKeyPrincipal(ctx: RequestContext): Principal {
  const { faults, apiKeys } = ctx.state;
  const id = header(ctx, 'x-api-key-id');
  const secret = header(ctx, 'x-api-key-secret');
  if (faults.has('api-key-id-alone-accepted') && id !== undefined && secret === undefined) {
    const alone = apiKeys.find(id);
    if (alone) return { scheme: 'apiKey', userId: alone.userId, bucket: `key:${alone.id}` };
  }
  if (id === undefined || secret === undefined) {
    throw new ApiError(401, 'UNAUTHORIZED', 'x-api-key-id and x-api-key-secret must be sent together');
  }
  // Fault api-key-unknown-id-accepted: an id no key has passes as the default key.
  const unknownAccepted = faults.has('api-key-unknown-id-accepted') && apiKeys.find(id) === undefined;
  const key: ApiKey | undefined = apiKeys.find(unknownAccepted ? DEFAULT_CREDENTIALS.apiKeyId : id);
  const secretOk =
    key !== undefined &&
    (faults.has('api-key-secret-prefix-compared')
      ? secret.length >= key.secret.length - 1 && key.secret.startsWith(secret.slice(0, -1))
      : sameSecret(secret, key.secret));
  // Fault near-miss-locks-api-key: five wrong secrets lock the key, its right secret refused too.
  const locked = key !== undefined && faults.has('near-miss-locks-api-key') && (key.wrongSecrets ?? 0) >= 5;
  if (key && !secretOk && faults.has('near-miss-locks-api-key'))
    key.wrongSecrets = (key.wrongSecrets ?? 0) + 1;
  if (!key || locked || !(unknownAccepted || secretOk || faults.has('api-key-wrong-secret-accepted'))) {
    // One answer for an unknown id and a wrong secret: which one was wrong is not told.
    throw new ApiError(401, 'INVALID_API_KEY', 'the API key id or secret is not valid');
  }
  // The address is the connection's: a header a client can set proves nothing (the fault trusts one).
  const forwarded = header(ctx, 'x-forwarded-for')?.split(',')[0]?.trim();
  const address = faults.has('pinned-key-trusts-forwarded-for') && forwarded ? forwarded : ctx.address;
  const elsewhere = key.pinnedAddress !== address || faults.has('pinned-key-refused-from-its-address');
  if (key.pinnedAddress && elsewhere && !faults.has('pinned-key-accepted-anywhere')) {
    throw new ApiError(
      403,
      'IP_NOT_ALLOWED',
      `this API key is pinned to another address: requests from ${address} are refused`,
    );
  }
  return {
    scheme: 'apiKey',
    userId: key.userId,
    bucket: `key:${key.id}`,
    ...(key.rateLimit ? { rateLimit: key.rateLimit } : {}),
  };
}

function bearerPrincipal(ctx: RequestContext, authorization: string): Principal {
  const { faults, tokens } = ctx.state;
  const match = /^(\S+)[ \t]+(\S+)[ \t]*$/.exec(authorization);
  const scheme = match?.[1] ?? '';
  const schemeOk = faults.has('bearer-lowercase-scheme-only')
    ? scheme === 'bearer'
    : faults.has('bearer-scheme-not-checked') || scheme.toLowerCase() === 'bearer';
  const token = match?.[2];
  if (!schemeOk || token === undefined) {
    // Fault refused-scheme-revokes-token: the refusal also ends the token it carried.
    if (token !== undefined && faults.has('refused-scheme-revokes-token')) tokens.forget(token);
    throw new ApiError(401, 'UNAUTHORIZED', 'the Authorization header must read: Bearer <access_token>');
  }
  const record = tokens.find(token);
  if (!record) {
    if (faults.has('invalid-bearer-accepted')) {
      return { scheme: 'bearer', userId: DEFAULT_USER_ID, bucket: `client:${DEFAULT_CREDENTIALS.clientId}` };
    }
    throw new ApiError(401, 'INVALID_TOKEN', 'the access token is not valid');
  }
  if (faults.has('token-not-accepted')) {
    throw new ApiError(401, 'INVALID_TOKEN', 'the access token is not valid');
  }
  const expiredAccepted =
    faults.has('expired-token-accepted') ||
    (faults.has('flags-expired-token-accepted') && ctx.path.endsWith('/v1/feature-flags'));
  if (tokens.isExpired(token, record, ctx.state.now()) && !expiredAccepted) {
    throw sessionExpired(ctx);
  }
  if (faults.has('token-single-use') && record.uses > 0) throw sessionExpired(ctx);
  record.uses++;
  return { scheme: 'bearer', userId: record.userId, bucket: `client:${record.clientId}` };
}

/**
 * The caller behind a request, or a refusal. When both schemes are sent, the API key is used if
 * the route accepts it, else the bearer token. A refused request counts against the caller's
 * address in the rate limiter, so wrong credentials cannot be tried without limit.
 */
export function authenticate(ctx: RequestContext, policy: SchemePolicy): Principal {
  try {
    const hasKey = header(ctx, 'x-api-key-id') !== undefined || header(ctx, 'x-api-key-secret') !== undefined;
    const authorization = header(ctx, 'authorization');
    const scheme =
      hasKey && (policy.apiKey === 'accept' || authorization === undefined)
        ? 'apiKey'
        : authorization !== undefined
          ? 'bearer'
          : 'none';
    if (scheme === 'none') {
      if (ctx.state.faults.has('no-credentials-accepted')) return defaultClientPrincipal(ctx);
      if (
        ctx.state.faults.has('trailing-slash-skips-auth') &&
        ctx.path.length > 1 &&
        ctx.path.endsWith('/')
      ) {
        return defaultClientPrincipal(ctx);
      }
      throw new ApiError(401, 'UNAUTHORIZED', policy.missing);
    }
    const refusal = policy[scheme];
    if (refusal !== 'accept') throw refusal;
    return scheme === 'apiKey' ? apiKeyPrincipal(ctx) : bearerPrincipal(ctx, authorization ?? '');
  } catch (error) {
    limitAnonymous(ctx);
    throw error;
  }
}

/** Counts a request against a bucket; over the limit, the limiter's answer is thrown. */
export function limitRate(ctx: RequestContext, bucket: string, own?: RateLimit): void {
  const { state } = ctx;
  const limit = own ?? state.rateLimit;
  if (!limit) return;
  const { faults } = state;
  const counted = state.limiter.hit(bucket, limit, state.now());
  // The fault keeps announcing the policy but never refuses: a limiter that is declared, not enforced.
  const verdict = faults.has('rate-limit-missing')
    ? { ...counted, allowed: true as const, remaining: Math.max(0, counted.remaining) }
    : counted;
  if (state.options.rateLimitHeaders) limiterHeaders.set(ctx.req, rateLimitHeaders(limit, verdict));
  if (verdict.allowed) return;
  const wait = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
  // The fault tells less than the real wait, so a retry after Retry-After is refused again.
  const advertised = faults.has('retry-after-too-short')
    ? wait > 1
      ? 1
      : 0
    : faults.has('retry-after-capped-at-one-second')
      ? Math.min(1, wait)
      : wait;
  const status = faults.has('rate-limit-503') ? 503 : faults.has('rate-limit-500') ? 500 : 429;
  const per =
    shapeOf(limit) === 'token-bucket'
      ? `a burst of ${limit.limit}, refilled at ${refillPerSecond(limit)} per second`
      : `${limit.limit} per ${limit.windowSeconds} s`;
  throw new ApiError(
    status,
    'RATE_LIMITED',
    `too many requests: the limit is ${per}; retry after ${advertised} s`,
    {
      headers: faults.has('rate-limit-no-retry-after') ? {} : { 'retry-after': String(advertised) },
      bodyless: faults.has('rate-limit-no-body'),
    },
  );
}

export function limitPrincipal(ctx: RequestContext, principal: Principal): void {
  limitRate(ctx, principal.bucket, principal.rateLimit);
}

/** A caller without a valid credential is limited by its address. */
export function limitAnonymous(ctx: RequestContext): void {
  limitRate(ctx, anonymousBucket(ctx));
}

/** Refuses the request when its feature is switched off (the live switch, not the cached flags). */
export function requireFeature(ctx: RequestContext, feature: Feature, unavailable: string): void {
  const { faults, features } = ctx.state;
  if (features.enabled(feature) || faults.has('feature-disabled-ignored')) return;
  throw new ApiError(503, 'FEATURE_FLAG_DISABLED', `the feature '${feature}' is disabled: ${unavailable}`);
}
