// The main service under /api/v1: the token route, customers, the user, feature flags, reports.
import { ApiError, simulatedCrash } from '../api-error.ts';
import { type Handler, quoted, type RequestContext } from '../context.ts';
import { DEFAULT_CREDENTIALS, DEFAULT_USER_ID } from '../credentials.ts';
import { users } from '../data.ts';
import {
  authenticate,
  bearerOnly,
  limitAnonymous,
  limitPrincipal,
  limitRate,
  requireFeature,
} from '../guards.ts';
import type { Reply } from '../reply.ts';
import { holdsLoneSurrogate, isObject, readJsonBody } from '../request-body.ts';
import { sameSecret } from '../secrets.ts';
import { customersPage } from './customers.ts';

// The one client of the reference server, tied to the default user.
const CLIENTS = new Map<string, { secret: string; userId: string }>([
  [DEFAULT_CREDENTIALS.clientId, { secret: DEFAULT_CREDENTIALS.clientSecret, userId: DEFAULT_USER_ID }],
]);

/** A client of the server: the default one, or one the options add (each its own limiter bucket). */
function clientOf(
  options: RequestContext['state']['options'],
  id: string,
): { secret: string; userId: string } | undefined {
  const extra = options.extraClients.find((c) => c.clientId === id);
  return CLIENTS.get(id) ?? (extra ? { secret: extra.clientSecret, userId: DEFAULT_USER_ID } : undefined);
}

const invalidClient = () =>
  new ApiError(401, 'INVALID_CLIENT', 'client_id and client_secret do not match a known client');

export const createToken: Handler = async (ctx) => {
  const { state } = ctx;
  const { faults } = state;
  let clientId: string;
  let userId: string;
  try {
    if (faults.has('token-no-content-type-500') && ctx.req.headers['content-type'] === undefined) {
      throw simulatedCrash();
    }
    const body = await readJsonBody(ctx.req, {
      crashOnMalformed: faults.has('malformed-json-500'),
      anyMediaType: state.options.choices['request-media-type'] === 'any',
      crashOnNotUtf8: faults.has('body-not-utf8-500'),
    });
    if (faults.has('token-null-body-500') && body === null) throw simulatedCrash();
    if (faults.has('lone-surrogate-500') && holdsLoneSurrogate(body)) throw simulatedCrash();
    if (!isObject(body)) {
      throw new ApiError(
        400,
        'VALIDATION_ERROR',
        'the request body must be a JSON object with client_id and client_secret',
      );
    }
    if (faults.has('token-empty-string-500') && (body.client_id === '' || body.client_secret === '')) {
      throw simulatedCrash();
    }
    const unknown = Object.keys(body).filter((k) => k !== 'client_id' && k !== 'client_secret');
    if (unknown.length > 0 && state.options.choices['unknown-token-fields'] === 'refuse') {
      throw new ApiError(400, 'VALIDATION_ERROR', `unknown field ${quoted(unknown[0] ?? '')}`);
    }
    const loose = faults.has('token-wrong-type-accepted');
    const id = loose && body.client_id !== undefined ? String(body.client_id) : body.client_id;
    const secret =
      loose && body.client_secret !== undefined ? String(body.client_secret) : body.client_secret;
    const fallback = CLIENTS.get(DEFAULT_CREDENTIALS.clientId);
    // Faults: an unknown client_id, or a body naming no client at all, passes as the default client.
    const unknownAccepted =
      (faults.has('token-unknown-client-accepted') &&
        typeof id === 'string' &&
        !clientOf(state.options, id)) ||
      (faults.has('token-empty-body-accepted') && id === undefined && secret === undefined);
    const client = unknownAccepted
      ? fallback
      : typeof id === 'string'
        ? clientOf(state.options, id)
        : undefined;
    const secretOk =
      unknownAccepted ||
      (typeof secret === 'string' &&
        client !== undefined &&
        (faults.has('token-client-secret-prefix-compared')
          ? secret.length >= client.secret.length - 1 && client.secret.startsWith(secret.slice(0, -1))
          : sameSecret(secret, client.secret)));
    if (!client || !(secretOk || faults.has('token-wrong-secret-accepted'))) {
      throw invalidClient();
    }
    clientId = unknownAccepted || typeof id !== 'string' ? DEFAULT_CREDENTIALS.clientId : id;
    userId = client.userId;
  } catch (error) {
    if (faults.has('oversized-body-500') && error instanceof ApiError && error.status === 413) {
      throw simulatedCrash();
    }
    // A caller without valid client credentials is limited by its address.
    if (error instanceof ApiError) limitAnonymous(ctx);
    throw error;
  }
  limitRate(ctx, `client:${clientId}`);
  const stale = faults.has('renewal-returns-stale-token') ? state.tokens.lastExpired(clientId) : undefined;
  const token = stale ?? state.tokens.issue(clientId, userId, state.now(), state.tokenTtlSeconds);
  const answer: Record<string, unknown> = {
    access_token: token,
    token_type: 'Bearer',
    expires_in: state.tokenTtlSeconds,
  };
  if (faults.has('token-answer-echoes-client-secret')) {
    answer.client = { client_id: clientId, client_secret: clientOf(state.options, clientId)?.secret };
  }
  if (state.options.extraFields) {
    answer.scope = 'profile users';
    answer.issued_at = new Date(state.now()).toISOString();
  }
  // Token answers must not be cached (as RFC 6749 asks of token endpoints).
  return { status: 200, headers: { 'cache-control': 'no-store', pragma: 'no-cache' }, json: answer };
};

export const listCustomers: Handler = (ctx) => {
  const { faults } = ctx.state;
  const principal = authenticate(ctx, {
    apiKey:
      faults.has('api-key-refused-on-customers') || faults.has('customers-refuses-both-schemes')
        ? new ApiError(401, 'UNAUTHORIZED', 'this route does not accept API keys')
        : 'accept',
    bearer: faults.has('customers-bearer-refused-404')
      ? new ApiError(404, 'NOT_FOUND', 'no such route for a bearer token')
      : ctx.state.options.choices['customers-auth'] === 'api-key' ||
          faults.has('customers-refuses-both-schemes')
        ? new ApiError(403, 'FORBIDDEN', 'this route accepts only an API key')
        : 'accept',
    missing: 'credentials are required: an API key (x-api-key-id, x-api-key-secret) or a bearer token',
  });
  limitPrincipal(ctx, principal);
  requireFeature(ctx, 'customers', 'customers are unavailable');
  return customersPage(ctx);
};

const bearerRoute = (ctx: RequestContext, apiKeyFault: 'user-me-accepts-api-key' | 'flags-accept-api-key') =>
  authenticate(ctx, {
    apiKey: ctx.state.faults.has(apiKeyFault) ? 'accept' : bearerOnly(),
    bearer: 'accept',
    missing: 'a bearer token is required (Authorization: Bearer <access_token>)',
  });

export const currentUser: Handler = (ctx) => {
  const principal = bearerRoute(ctx, 'user-me-accepts-api-key');
  limitPrincipal(ctx, principal);
  requireFeature(ctx, 'user-profile', 'GET /v1/user/me (the user profile) is unavailable');
  const user = users(ctx.state.options.seed).get(principal.userId);
  if (!user) throw new ApiError(404, 'NOT_FOUND', 'the user of this credential no longer exists');
  const record = ctx.state.options.extraFields ? user.rich : user.plain;
  return { status: 200, json: record };
};

const FEATURE_DESCRIPTIONS: Record<string, string> = {
  customers: 'customer records (GET /v1/customers)',
  'user-profile': 'the user profile (GET /v1/user/me)',
  reports: 'reports (GET /v1/reports)',
  'new-dashboard': 'the new dashboard',
  'beta-exports': 'exports in beta',
};

export const featureFlags: Handler = (ctx) => {
  const principal = bearerRoute(ctx, 'flags-accept-api-key');
  limitPrincipal(ctx, principal);
  const { faults, flagCache, features, options } = ctx.state;
  const policy = faults.has('flags-not-cached')
    ? 'never-cache'
    : faults.has('flags-never-renewed')
      ? 'never-renew'
      : 'window';
  const flags = flagCache.read(principal.userId, features, ctx.state.now(), policy);
  // Nothing time-dependent in the body: equal flags give equal answers across windows.
  const body = options.extraFields
    ? {
        features: Object.fromEntries(
          flags.map((f) => [f.name, { enabled: f.enabled, description: FEATURE_DESCRIPTIONS[f.name] }]),
        ),
        user_id: principal.userId,
        cache_seconds: flagCache.windowSeconds,
      }
    : { data: flags };
  const maxAge = Math.ceil(flagCache.windowSeconds);
  return { status: 200, headers: { 'cache-control': `private, max-age=${maxAge}` }, json: body };
};

const REPORTS = [
  { id: 'rep_1', name: 'Monthly settlements', period: '2025-12', format: 'csv' },
  { id: 'rep_2', name: 'Chargebacks', period: '2025-12', format: 'csv' },
  { id: 'rep_3', name: 'Customer growth', period: '2025-Q4', format: 'pdf' },
];

export const listReports: Handler = (ctx): Reply => {
  const principal = authenticate(ctx, {
    apiKey: 'accept',
    bearer: 'accept',
    missing: 'credentials are required: an API key (x-api-key-id, x-api-key-secret) or a bearer token',
  });
  limitPrincipal(ctx, principal);
  requireFeature(ctx, 'reports', 'reports are unavailable');
  return { status: 200, json: { data: REPORTS } };
};
