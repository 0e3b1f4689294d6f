// The main service's routes, relative to {base_url} (spec: Endpoints / Main service).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, type Scheme } from './authenticate.ts';
import type { Credentials } from './credentials.ts';
import { type Customer, choosePage, makeCustomers, pageOf, totalPagesOf } from './customers.ts';
import { type ErrorSpec, sendError } from './error-body.ts';
import { FeatureFlags } from './feature-flags.ts';
import { queryOf, readJsonBody, sendJson } from './http-io.ts';
import type { IndependentOptions } from './options.ts';
import { RateLimiter } from './rate-limiter.ts';

interface Route {
  method: 'GET' | 'POST';
  accepts: readonly Scheme[];
}

const ROUTES: Record<string, Route> = {
  '/v1/auth/token': { method: 'POST', accepts: [] },
  '/v1/customers': { method: 'GET', accepts: ['api-key', 'bearer'] },
  '/v1/user/me': { method: 'GET', accepts: ['bearer'] },
  '/v1/feature-flags': { method: 'GET', accepts: ['bearer'] },
};

export class MainService {
  private readonly customers: Customer[];
  private readonly flags: FeatureFlags;
  private readonly limiter: RateLimiter;

  private readonly options: IndependentOptions;
  private readonly credentials: Credentials;

  constructor(options: IndependentOptions, credentials: Credentials) {
    this.options = options;
    this.credentials = credentials;
    this.customers = makeCustomers(options.customerCount);
    this.limiter = new RateLimiter(options.rateLimit, options.rateWindowSeconds * 1000);
    this.flags = new FeatureFlags(() => {
      const flip = options.flagFlipEverySeconds;
      const on = flip === undefined || Math.floor(Date.now() / (flip * 1000)) % 2 === 0;
      const state: Record<string, boolean> = { 'instant-payouts': on, 'crm-timeline': true };
      for (const feature of Object.values(options.disabledFeatures)) state[feature] = false;
      return state;
    });
  }

  async handle(req: IncomingMessage, res: ServerResponse, route: string, url: URL): Promise<void> {
    const where = { route, requestPath: url.pathname };
    const fail = (error: ErrorSpec) => sendError(res, this.options, where, error);
    const disabled = this.options.disabledFeatures[route];
    const known: Route | undefined =
      ROUTES[route] ?? (disabled ? { method: 'GET', accepts: ['api-key', 'bearer'] } : undefined);
    if (!known) return fail({ status: 404, code: 'NOT_FOUND', message: `no route ${req.method} ${route}` });
    if (req.method !== known.method) {
      return fail({
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: `${route} accepts ${known.method} only`,
        headers: { allow: known.method },
      });
    }
    if (route === '/v1/auth/token') return this.token(req, res, fail);

    const caller = authenticate(req, known.accepts, this.credentials, this.options);
    if (!caller.ok) return fail(caller.error);
    const limited = this.limiter.take(caller.credential);
    if (limited.allowed && this.options.rateLimitHeaders) {
      res.setHeader('ratelimit-policy', `${this.options.rateLimit};w=${this.options.rateWindowSeconds}`);
      res.setHeader(
        'ratelimit',
        `limit=${this.options.rateLimit}, remaining=${limited.remaining}, reset=${limited.resetSeconds}`,
      );
    }
    if (!limited.allowed) {
      return fail({
        status: 429,
        code: 'RATE_LIMITED',
        message: 'too many requests; slow down',
        headers: { 'retry-after': String(limited.retryAfterSeconds) },
      });
    }
    if (disabled) {
      return fail({
        status: 503,
        code: 'FEATURE_FLAG_DISABLED',
        message:
          this.options.breakRule === 'feature-unnamed'
            ? 'this operation is unavailable for this account'
            : `the feature "${disabled}" is disabled for this account`,
      });
    }
    if (route === '/v1/customers') return this.listCustomers(res, url, fail);
    if (route === '/v1/user/me') {
      return sendJson(res, 200, {
        user_id: caller.userId,
        display_name: 'Integration User',
        email: 'integration.user@example.test',
        locale: 'pt-PT',
      });
    }
    return sendJson(res, 200, this.flags.answerFor(caller.userId, this.options.flagShape), {
      'cache-control': 'private, max-age=60',
    });
  }

  private async token(
    req: IncomingMessage,
    res: ServerResponse,
    fail: (e: ErrorSpec) => void,
  ): Promise<void> {
    const body = await readJsonBody(req);
    if (!body.ok) return fail({ status: 400, code: 'INVALID_REQUEST', message: body.reason });
    const value = body.value as Record<string, unknown> | null;
    const problems: string[] = [];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      problems.push('the body must be a JSON object');
    else {
      if (typeof value.client_id !== 'string') problems.push('client_id (string) is required');
      if (typeof value.client_secret !== 'string') problems.push('client_secret (string) is required');
    }
    if (problems.length > 0) {
      return fail({ status: 400, code: 'INVALID_REQUEST', message: problems.join('; '), errors: problems });
    }
    const client = this.credentials.findClient(value?.client_id, value?.client_secret);
    if (!client) {
      return fail({
        status: this.options.wrongClientStatus,
        code: 'INVALID_CLIENT',
        message: 'client credentials not recognised',
      });
    }
    const issued = this.credentials.issue(client.userId);
    const answer: Record<string, unknown> = {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      scope: 'profile users',
    };
    if (this.options.tokenExtras === 'with-refresh-token') answer.refresh_token = `rt_${randomUUID()}`;
    sendJson(res, 200, answer, { 'cache-control': 'no-store' });
  }

  private listCustomers(res: ServerResponse, url: URL, fail: (e: ErrorSpec) => void): void {
    const size = this.options.customerPageSize;
    const chosen = choosePage(
      queryOf(url).get('page'),
      totalPagesOf(this.customers.length, size),
      this.options,
    );
    if (!chosen.ok) {
      fail(chosen.error);
      return;
    }
    sendJson(res, 200, pageOf(this.customers, chosen.page, size, this.options));
  }
}
