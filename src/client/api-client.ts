// The client the checks use: builds each request (service base, query, auth scheme), runs it
// through the 429 policy and the token renewal, and records every exchange (the recorder redacts).
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { errorCode } from '../../load/lib/shared/error-body.ts';
import { allowedOrigins } from '../../load/lib/shared/origin.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';
import { pathOf, TokenError } from './errors.ts';
import { createRecorder } from './recorder.ts';
import { DEFAULT_RETRY_POLICY, with429Retries } from './retry.ts';
import { isSessionExpired } from './session.ts';
import { createTokenManager } from './token-manager.ts';
import { DEFAULT_MAX_BODY_BYTES, type OutgoingRequest, send } from './transport.ts';
import type { ApiClient, ApiRequest, ApiResponse, ExchangeRecorder, RetryPolicy } from './types.ts';

export interface ClientOptions {
  recorder?: ExchangeRecorder;
  retry?: Partial<RetryPolicy>;
  /** undici dispatcher (a MockAgent in tests); default: undici's global one. */
  dispatcher?: Dispatcher;
  /** Larger responses fail with TransportError 'too-large' (default 5 MiB). */
  maxBodyBytes?: number;
}

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

export function createApiClient(config: TargetConfig, options: ClientOptions = {}): ApiClient {
  const secrets = secretValues(config);
  // The recorder's secret filter is the one pass over each exchange; it learns the tokens obtained here.
  const recorder = options.recorder ?? createRecorder(secrets);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const transport = {
    timeoutMs: config.requestTimeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowedOrigins: allowedOrigins(config),
    dispatcher: options.dispatcher,
  };
  // `new URL('pets', '.../v1')` would replace the last segment: both bases must end with a slash.
  const bases = { main: withSlash(config.apiBaseUrl), petstore: withSlash(config.petstoreBaseUrl) };

  function build(req: ApiRequest, token?: string): OutgoingRequest {
    const url = new URL(req.path.replace(/^\/+/, ''), bases[req.service]);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | undefined;
    if (req.rawBody !== undefined) {
      body = req.rawBody;
      if (req.contentType) headers['content-type'] = req.contentType;
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = req.contentType ?? 'application/json';
    }
    if (req.auth === 'apiKey') {
      headers['x-api-key-id'] = config.credentials.apiKeyId;
      headers['x-api-key-secret'] = config.credentials.apiKeySecret;
    } else if (req.auth === 'bearer') {
      headers.authorization = `Bearer ${token}`;
    } else if (typeof req.auth === 'object') {
      for (const [name, value] of Object.entries(req.auth.headers)) headers[name.toLowerCase()] = value;
    }
    for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
    return body === undefined
      ? { method: req.method, url, headers }
      : { method: req.method, url, headers, body };
  }

  async function exchange(out: OutgoingRequest): Promise<ApiResponse> {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    recorder.learnFromHeaders(out.headers);
    const base = {
      method: out.method,
      url: out.url.href,
      requestHeaders: { ...out.headers },
      ...(out.body === undefined ? {} : { requestBody: out.body }),
      startedAt,
    };
    try {
      const res = await send(out, transport);
      recorder.record({
        ...base,
        status: res.status,
        responseHeaders: res.headers,
        responseBody: res.text,
        durationMs: res.durationMs,
      });
      return res;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      recorder.record({ ...base, durationMs: performance.now() - started, error: message });
      throw error;
    }
  }

  const run = (req: ApiRequest, token?: string) =>
    with429Retries(() => exchange(build(req, token)), policy, req.retryOn429 ?? true);

  async function fetchToken(): Promise<string> {
    const { clientId, clientSecret } = config.credentials;
    const res = await run({
      service: 'main',
      method: 'POST',
      path: 'v1/auth/token',
      auth: 'none',
      body: { client_id: clientId, client_secret: clientSecret },
    });
    const token = (res.body as { access_token?: unknown } | undefined)?.access_token;
    if (res.status >= 200 && res.status < 300 && typeof token === 'string' && token !== '') {
      recorder.learn(token);
      return token;
    }
    const code = errorCode(res.body);
    const why =
      res.status >= 300
        ? `answered ${res.status}${code !== undefined ? ` (${code})` : ''}`
        : 'gave no access_token';
    throw new TokenError(`token request failed: POST ${pathOf(res.url)} ${why}`, res.status);
  }

  const manager = createTokenManager(fetchToken);
  const tokens = {
    getToken: manager.getToken,
    renew: manager.renew,
    useToken(token: string) {
      recorder.learn(token);
      manager.useToken(token);
    },
    get tokenRequests() {
      return manager.tokenRequests;
    },
  };

  async function request(req: ApiRequest): Promise<ApiResponse> {
    if (req.auth !== 'bearer') return run(req);
    const token = await tokens.getToken();
    const first = await run(req, token);
    if (req.renew === false || !isSessionExpired(first)) return first;
    // Renew and repeat once; a second SESSION_EXPIRED is final and goes back to the caller as is.
    const fresh = await tokens.renew(token);
    return run(req, fresh);
  }

  return { request, tokens, recorder };
}
