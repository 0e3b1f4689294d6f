// The client's public shapes: a request as the checks state it, the response they get back, and
// the record of every exchange that the reports show.
import type { ReplayRequest } from './replay.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface ApiRequest {
  service: 'main' | 'petstore';
  method: HttpMethod;
  /** Relative to the service base: 'v1/customers', 'pets/7'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** A custom set of headers stands for wrong or hand-made credentials. */
  auth: 'apiKey' | 'bearer' | 'none' | { headers: Record<string, string> };
  /** Sent as JSON. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Bearer: renew on SESSION_EXPIRED and repeat once (default true). */
  renew?: boolean;
  /** Default true (bounded); probes of the rate limiter switch it off. */
  retryOn429?: boolean;
  /**
   * Made by the request generator: every value in it but the configured secrets and the run's
   * tokens was made up, so the recorded request keeps such values (a client_secret it drew, say)
   * for its curl line, where a hand-made request's would be hidden.
   */
  generated?: boolean;
  /**
   * The check wrote every value of the request itself (a wrong secret, a malformed token) but the
   * configured secrets and the run's tokens, which stay their variables: its credentials and
   * secret fields are no secret, and its curl line sends them as they were. Without it a
   * hand-made credential is hidden, and its exchange has no command (docs/reports.md).
   */
  madeUp?: boolean;
}

export interface ApiResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
  isJson: boolean;
  /** The body's length in bytes, as received (older or hand-made responses may lack it). */
  bytes?: number;
  /** The offset of the body's first byte that is not UTF-8 (in `text` it is U+FFFD). */
  notUtf8At?: number;
  url: string;
  durationMs: number;
}

export interface RecordedExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** Truncated to 64 KiB. */
  responseBody?: string;
  /** The response body's length in bytes as received, before any cut (INV-JSON-BYTES). */
  responseBytes?: number;
  /** The offset of the response body's first byte that is not UTF-8; absent when all are. */
  responseNotUtf8At?: number;
  startedAt: string;
  durationMs: number;
  error?: string;
  /**
   * The request as it was sent, each secret written as its variable: what a curl line is rendered
   * from (set by the recorder; older results may lack it).
   */
  replay?: ReplayRequest;
  /**
   * What the answer carried and must not (variable names of configured secrets, a token the request
   * did not ask for), judged before redaction; never the values (src/client/leaks.ts).
   */
  leaked?: string[];
}

export interface ExchangeRecorder {
  /**
   * Takes an exchange as sent and received: filters its secrets (its one pass), cuts its bodies.
   * `generated`: the request's values were made up (ApiRequest.generated).
   */
  record(e: RecordedExchange, options?: { generated?: boolean; madeUp?: boolean }): void;
  /**
   * A secret learned on the way (a token the client obtained), and the shell variable a command
   * writes instead of it (the table's name of a configured secret, ACCESS_TOKEN for a token).
   */
  learn(secret: string, variable?: string): void;
  /** The credentials sent in headers (also hand-made ones), so echoes of them are caught. */
  learnFromHeaders(headers: Record<string, string>): void;
  /** A deep copy of a value (a check's failure) with every secret the recorder knows redacted. */
  redact<T>(value: T): T;
  exchanges(): RecordedExchange[];
  clear(): void;
}

export interface RetryPolicy {
  /** Retries after a 429 (default 3). */
  maxRetries: number;
  /** Total time spent waiting for one request (default 10000 ms). */
  maxTotalWaitMs: number;
  /** Wait when a 429 carries no usable Retry-After (default 1000 ms). */
  defaultDelayMs: number;
  /** Injectable for tests: waits ms. */
  sleep: (ms: number) => Promise<void>;
  /** Injectable for tests: the clock HTTP-date Retry-After values are measured against. */
  now: () => number;
}

export interface TokenManager {
  /** The cached token, or a new one (one token request however many callers ask at once). */
  getToken(): Promise<string>;
  /**
   * A new token after `staleToken` met SESSION_EXPIRED. Single-flight: callers during a renewal
   * share it; a caller whose stale token was already replaced gets the current one.
   */
  renew(staleToken: string | undefined): Promise<string>;
  /** Seeds the cache (e.g. EXPIRED_ACCESS_TOKEN), so the next request carries it. */
  useToken(token: string): void;
  /** Token requests sent so far. */
  readonly tokenRequests: number;
}

export interface ApiClient {
  request(req: ApiRequest): Promise<ApiResponse>;
  tokens: TokenManager;
  recorder: ExchangeRecorder;
}
