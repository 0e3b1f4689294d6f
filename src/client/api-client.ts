// The client the checks use: each ApiRequest is built once into the outgoing request
// (outgoing.ts), then sent through one chain: renewal, 429 retries and recording wrap the
// transport's send (interceptors.ts). The recorder redacts and keeps the request for its curl line.
import type { Dispatcher } from 'undici';
import { accessTokenProblem } from '../../common/access-token.ts';
import { errorCode } from '../../common/error-body.ts';
import { allowedOrigins } from '../../common/origin.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';
import { pathOf, TokenError } from './errors.ts';
import { compose, recording, renewing, retrying429, type Send } from './interceptors.ts';
import { buildOutgoing } from './outgoing.ts';
import { createRecorder } from './recorder.ts';
import { ACCESS_TOKEN, namedSecrets } from './replay.ts';
import { DEFAULT_RETRY_POLICY } from './retry.ts';
import { createTokenManager } from './token-manager.ts';
import { DEFAULT_MAX_BODY_BYTES, send as transportSend } from './transport.ts';
import type { ApiClient, ApiRequest, ApiResponse, ExchangeRecorder, RetryPolicy } from './types.ts';

export interface ClientOptions {
  recorder?: ExchangeRecorder;
  retry?: Partial<RetryPolicy>;
  /** undici dispatcher (a MockAgent in tests); default: undici's global one. */
  dispatcher?: Dispatcher;
  /** Larger responses fail with TransportError 'too-large' (default 5 MiB). */
  maxBodyBytes?: number;
}

export function createApiClient(config: TargetConfig, options: ClientOptions = {}): ApiClient {
  // The recorder's secret filter is the one pass over each exchange; it learns the tokens obtained
  // here, and every secret under the variable its curl line writes instead.
  const recorder = options.recorder ?? createRecorder(secretValues(config));
  for (const { value, variable } of namedSecrets(config)) recorder.learn(value, variable);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const transport = {
    timeoutMs: config.requestTimeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowedOrigins: allowedOrigins(config),
    dispatcher: options.dispatcher,
  };

  // Late-bound: the renewal step needs the token manager, whose token requests use this chain too.
  let renew: (staleToken: string | undefined) => Promise<string> = () =>
    Promise.reject(new Error('no token manager yet'));
  const send: Send = compose(
    (out) => transportSend(out, transport),
    renewing((stale) => renew(stale)),
    retrying429(policy),
    recording(recorder),
  );

  const run = (req: ApiRequest, token?: string): Promise<ApiResponse> =>
    send(buildOutgoing(req, config, token), {
      retryOn429: req.retryOn429 ?? true,
      renew: req.auth === 'bearer' && req.renew !== false,
      generated: req.generated === true,
      madeUp: req.madeUp === true,
    });

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
    const unusable = typeof token === 'string' ? accessTokenProblem(token) : undefined;
    if (res.status < 300 && unusable) {
      throw new TokenError(
        `token request failed: POST ${pathOf(res.url)} answered ${res.status}, but ${unusable}`,
        res.status,
      );
    }
    if (res.status >= 200 && res.status < 300 && typeof token === 'string' && token !== '') {
      recorder.learn(token, ACCESS_TOKEN);
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
  renew = manager.renew;
  const tokens = {
    getToken: manager.getToken,
    renew: manager.renew,
    useToken(token: string) {
      recorder.learn(token, ACCESS_TOKEN);
      manager.useToken(token);
    },
    get tokenRequests() {
      return manager.tokenRequests;
    },
  };

  async function request(req: ApiRequest): Promise<ApiResponse> {
    return run(req, req.auth === 'bearer' ? await tokens.getToken() : undefined);
  }

  return { request, tokens, recorder };
}
