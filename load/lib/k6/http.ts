// k6/http adapters shared by the scripts: every request of the scripts goes through send() (or
// sendBatch()), which applies the one origin rule (load/lib/shared/origin.ts: only the configured
// bases' origins are reached), follows no redirect (a 3xx is a finding naming the Location's origin
// only), keeps no cookie (a new jar per request: nothing the target sets is stored or sent back),
// and keeps a body only when asked (k6 reads a kept body whole: it has no size cap, so bodies are
// discarded unless the script needs them). Runs only inside k6; the logic lives in pure modules.
import { check } from 'k6';
import http, { type Params, type RefinedResponse, type ResponseType } from 'k6/http';
import { Counter } from 'k6/metrics';
import { BOUNDED_OPTIONS, REDIRECTS_METRIC, redirectCheckName } from '../bounded.ts';
import { apiUrl, type LoadConfig } from '../config.ts';
import { errorCode, jsonBody } from '../shared/error-body.ts';
import { allowedOrigin, allowedOrigins, redirectOrigin } from '../shared/origin.ts';

export type Response = RefinedResponse<ResponseType | undefined>;

/** Answers that were redirects, not followed (every script holds it at 0 with a threshold). */
const redirects = new Counter(REDIRECTS_METRIC);

export interface SendOptions {
  tags: Record<string, string>;
  headers?: Record<string, string>;
  /** Whether the script reads the body; discarded otherwise (k6 would hold it whole in memory). */
  keepBody?: boolean;
}

/** The origins requests may go to: the configured bases', or the control API's for its own calls. */
function origins(config: LoadConfig, control: boolean): string[] {
  return control && config.controlUrl
    ? allowedOrigins({ apiBaseUrl: config.controlUrl })
    : allowedOrigins(config);
}

/** Throws one line when the URL is not on an allowed origin: the request is never sent. */
function refuseElsewhere(config: LoadConfig, url: string, control = false): void {
  const verdict = allowedOrigin(url, origins(config, control));
  if (!verdict.allowed) throw new Error(verdict.reason);
}

function params(config: LoadConfig, options: SendOptions): Params {
  return {
    headers: { accept: 'application/json', ...options.headers },
    tags: options.tags,
    timeout: `${config.requestTimeoutMs}ms`,
    redirects: BOUNDED_OPTIONS.maxRedirects,
    // A jar of its own per request: cookies the target sets are neither kept nor sent back.
    jar: new http.CookieJar(),
    responseType: options.keepBody ? 'text' : 'none',
  };
}

const named = new Set<string>();

/** A 3xx is not followed; it is counted and named (by the Location's origin only) as a failed check. */
function noteRedirect(res: Response, requestUrl: string, endpoint: string | undefined): void {
  const where = redirectOrigin(res.status, res.headers.Location, requestUrl);
  if (where === undefined) return;
  redirects.add(1, endpoint ? { endpoint } : {});
  // Distinct names are capped per VU: a target answering with ever new ports cannot grow the summary.
  const name = redirectCheckName(res.status, named.size < 20 || named.has(where) ? where : 'another origin');
  named.add(where);
  check(res, { [name]: () => false });
}

/** One request of a script, under the rules above. */
export function send(
  config: LoadConfig,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body: string | null,
  options: SendOptions,
  control = false,
): Response {
  refuseElsewhere(config, url, control);
  const res = http.request(method, url, body, params(config, options)) as Response;
  noteRedirect(res, url, options.tags.endpoint);
  return res;
}

/** Several GETs at once (the rate-limit probe's bursts), under the same rules. */
export function sendBatch(config: LoadConfig, url: string, count: number, options: SendOptions): Response[] {
  refuseElsewhere(config, url);
  const one = params(config, options);
  const responses = http.batch(
    Array.from({ length: count }, () => ['GET', url, null, one] as const) as never,
  ) as unknown as Response[];
  for (const res of responses) noteRedirect(res, url, options.tags.endpoint);
  return responses;
}

export function apiKeyHeaders(config: LoadConfig): Record<string, string> {
  return { 'x-api-key-id': config.apiKeyId ?? '', 'x-api-key-secret': config.apiKeySecret ?? '' };
}

export function bearerHeaders(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export function bodyText(res: Response): string | null {
  return typeof res.body === 'string' ? res.body : null;
}

/**
 * POST /v1/auth/token; throws one line (status and error code only, never the body) when refused.
 * A token is used only when it came from the configured API origin (redirects are not followed,
 * and the answer's own URL is checked again before the token is taken).
 */
export function issueToken(config: LoadConfig): string {
  const url = apiUrl(config, 'v1/auth/token');
  const res = send(
    config,
    'POST',
    url,
    JSON.stringify({ client_id: config.clientId, client_secret: config.clientSecret }),
    {
      headers: { 'content-type': 'application/json' },
      tags: { name: 'POST /v1/auth/token', endpoint: 'auth-token' },
      keepBody: true,
    },
  );
  const from = allowedOrigin(res.url || url, allowedOrigins(config));
  if (!from.allowed) throw new Error(`token answer not used: ${from.reason}`);
  const body = bodyText(res);
  let token: unknown;
  try {
    token = body ? (JSON.parse(body) as { access_token?: unknown }).access_token : undefined;
  } catch {
    token = undefined;
  }
  if (res.status !== 200 || typeof token !== 'string' || token === '') {
    // The code is the target's text: shown only when it looks like one (no escapes reach the terminal).
    const given = errorCode(jsonBody(body));
    const code = given !== undefined && /^[A-Z][A-Z0-9_]{0,63}$/.test(given) ? given : undefined;
    const where = redirectOrigin(res.status, res.headers.Location, url);
    throw new Error(
      `token request refused: HTTP ${res.status}${code ? ` ${code}` : ''}${where ? ` (a redirect to ${where}, not followed)` : ''}${res.error ? ` (${res.error})` : ''}`,
    );
  }
  return token;
}

export function get(
  config: LoadConfig,
  url: string,
  headers: Record<string, string>,
  tags: Record<string, string>,
  keepBody = false,
): Response {
  return send(config, 'GET', url, null, { headers, tags, keepBody });
}
