// k6/http adapters shared by the scripts: every request of the scripts goes through send() (or
// sendBatch()), which applies the one origin rule (common/origin.ts: only the configured
// bases' origins are reached), follows no redirect (a 3xx is a finding naming the Location's origin
// only), keeps no cookie (a new jar per request: nothing the target sets is stored or sent back),
// and keeps a body only when asked (k6 reads a kept body whole: it has no size cap, so bodies are
// discarded unless the script needs them, and one that is needed is read through readBounded():
// only when an answer to it declared at most 1 MiB with no content coding, load/lib/bounded-read.ts).
// Every request asks for no content coding (k6 would inflate a gzip body without a cap). Runs only
// inside k6; the logic lives in pure modules.
import { check } from 'k6';
import http, { type Params, type RefinedResponse, type ResponseType } from 'k6/http';
import { Counter } from 'k6/metrics';
import { accessTokenProblem } from '../../../common/access-token.ts';
import { errorCode, jsonBody } from '../../../common/error-body.ts';
import { allowedOrigin, allowedOrigins, redirectOrigin } from '../../../common/origin.ts';
import {
  BOUNDED_OPTIONS,
  MAX_READ_BYTES,
  REDIRECTS_METRIC,
  redirectCheckName,
  UNBOUNDED_METRIC,
  UNREAD_METRIC,
} from '../bounded.ts';
import { afterAsk, ReadGate, type ReadPurpose, UNREAD_REASONS, type Unread } from '../bounded-read.ts';
import { apiUrl, type LoadConfig } from '../config.ts';
import { Refusal, UnreadToken } from './iteration.ts';

export type Response = RefinedResponse<ResponseType | undefined>;

/** Answers that were redirects, not followed (every script holds it at 0 with a threshold). */
const redirects = new Counter(REDIRECTS_METRIC);
/** Answers whose body was needed but not read (too big, undeclared, coded): said in the report. */
const unread = new Counter(UNREAD_METRIC);
/** Bodies read although their own answer then declared no readable size: said in the report. */
const unbounded = new Counter(UNBOUNDED_METRIC);

/** Learns from a kept answer; counts it when it turned out not to be bounded by its own headers. */
function learnKept(gate: ReadGate, res: Response, endpoint: string | undefined): void {
  const why = gate.learn(res.status, res.headers);
  if (why !== undefined && why !== 'no-answer') unbounded.add(1, { why, endpoint: endpoint ?? '' });
}

export interface SendOptions {
  tags: Record<string, string>;
  headers?: Record<string, string>;
  /**
   * Whether the body is kept; discarded otherwise (k6 would hold it whole in memory). Only
   * readBounded() keeps one, after an answer declared a readable size.
   */
  keepBody?: boolean;
}

/** The origins requests may go to: the configured bases', or the control API's for its own calls. */
function origins(config: LoadConfig, control: boolean): string[] {
  return control && config.controlUrl
    ? allowedOrigins({ apiBaseUrl: config.controlUrl })
    : allowedOrigins(config);
}

/** Throws a one-line Refusal when the URL is not on an allowed origin: the request is never sent. */
function refuseElsewhere(config: LoadConfig, url: string, control = false): void {
  const verdict = allowedOrigin(url, origins(config, control));
  if (!verdict.allowed) throw new Refusal(verdict.reason);
}

function params(config: LoadConfig, options: SendOptions): Params {
  return {
    // identity: a coded body is inflated by k6 without a cap, and its declared length says nothing.
    headers: { accept: 'application/json', 'accept-encoding': 'identity', ...options.headers },
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

/** A needed body as the script gets it: read, or not (and why, counted in load_bodies_not_read). */
export interface ReadAnswer {
  status: number;
  response: Response;
  /** The body when it was read, else null. */
  body: string | null;
  /** Set when the body was needed but not read: too big, undeclared or coded. */
  unread?: Unread;
}

/**
 * The one bounded read: a request whose body the script needs. The body is kept in the same ask
 * when the last answer of its kind (gate) declared at most 1 MiB with no content coding; otherwise
 * the request is asked with the body discarded, and asked again with it kept only when that answer
 * declared a readable size and the purpose allows a second ask (load/lib/bounded-read.ts).
 * purposeOf: what this answer's body is needed for, or undefined when it is not (a success of a
 * user's call, a redirect). A fresh gate makes every read ask first. control: a call of the reference
 * server's control API (its own origin).
 */
export function readBounded(
  config: LoadConfig,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body: string | null,
  options: SendOptions,
  gate: ReadGate,
  purposeOf: (res: Response) => ReadPurpose | undefined,
  control = false,
): ReadAnswer {
  const kept = gate.open();
  const first = send(config, method, url, body, { ...options, keepBody: kept }, control);
  const purpose = purposeOf(first);
  if (kept) {
    learnKept(gate, first, options.tags.endpoint);
    return { status: first.status, response: first, body: bodyText(first) };
  }
  const step = afterAsk(kept, gate.learn(first.status, first.headers), purpose);
  if (step.step === 'ask-again') {
    const again = send(config, method, url, body, { ...options, keepBody: true }, control);
    learnKept(gate, again, options.tags.endpoint);
    return { status: again.status, response: again, body: bodyText(again) };
  }
  if (step.step === 'without' && step.unread !== undefined && purpose !== undefined) {
    unread.add(1, { why: step.unread, purpose, endpoint: options.tags.endpoint ?? '' });
    return { status: first.status, response: first, body: null, unread: step.unread };
  }
  return { status: first.status, response: first, body: null };
}

/** Per virtual user: whether its last token answer declared a readable size (renewals ask once). */
const tokenGate = new ReadGate();

/**
 * POST /v1/auth/token; throws a one-line Refusal (status and error code only, never the body) when
 * refused or not readable. A token is used only when it came from the configured API origin
 * (redirects are not followed, and the answer's own URL is checked again before the token is
 * taken). A user's first token is asked twice (the first answer, discarded, shows its size; that
 * token is never used); a renewal once, when the last token answer declared a readable size.
 */
export function issueToken(config: LoadConfig): string {
  const url = apiUrl(config, 'v1/auth/token');
  const read = readBounded(
    config,
    'POST',
    url,
    JSON.stringify({ client_id: config.clientId, client_secret: config.clientSecret }),
    {
      headers: { 'content-type': 'application/json' },
      tags: { name: 'POST /v1/auth/token', endpoint: 'auth-token' },
    },
    tokenGate,
    // A redirect's body is not read: the refusal names its Location's origin.
    (r) => (r.status >= 300 && r.status < 400 ? undefined : 'token'),
  );
  const res = read.response;
  const from = allowedOrigin(res.url || url, allowedOrigins(config));
  if (!from.allowed) throw new Refusal(`token answer not used: ${from.reason}`);
  if (read.unread !== undefined) {
    throw new UnreadToken(
      `token answer not read: HTTP ${res.status} ${UNREAD_REASONS[read.unread]}; k6 cannot cap a read, so only answers that declare at most ${MAX_READ_BYTES / (1024 * 1024)} MiB (Content-Length) with no content coding are read (docs/misbehaving-targets.md)`,
    );
  }
  let token: unknown;
  try {
    token = read.body ? (JSON.parse(read.body) as { access_token?: unknown }).access_token : undefined;
  } catch {
    token = undefined;
  }
  if (res.status !== 200 || typeof token !== 'string' || token === '') {
    // The code is the target's text: shown only when it looks like one (no escapes reach the terminal).
    const given = errorCode(jsonBody(read.body));
    const code = given !== undefined && /^[A-Z][A-Z0-9_]{0,63}$/.test(given) ? given : undefined;
    const where = redirectOrigin(res.status, res.headers.Location, url);
    throw new Refusal(
      `token request refused: HTTP ${res.status}${code ? ` ${code}` : ''}${where ? ` (a redirect to ${where}, not followed)` : ''}${res.error ? ` (${res.error})` : ''}`,
    );
  }
  const unusable = accessTokenProblem(token);
  if (unusable)
    throw new Refusal(`token answer not used: POST /v1/auth/token answered ${res.status}, but ${unusable}`);
  return token;
}

export function get(
  config: LoadConfig,
  url: string,
  headers: Record<string, string>,
  tags: Record<string, string>,
): Response {
  // Its body is discarded: a body the script needs is read through readBounded().
  return send(config, 'GET', url, null, { headers, tags });
}
