// The choices an independent server makes where the payments and CRM spec says "not shown" or is
// silent. Each option is one reasonable answer a real server might give; the self-test starts the
// server with several sets of them, and the conformance suite must pass against every set.
// Written from the spec alone (never from src/reference/), so the suite's assumptions show.

/** A shown rule broken on purpose, to prove the self-test can fail. */
export type BrokenRule =
  | 'status-code-mismatch'
  | 'showing-items-off'
  | 'beyond-last-page-200'
  | 'feature-unnamed';

export interface IndependentOptions {
  /** Spec: "HTTP status of SESSION_EXPIRED: not shown". */
  sessionExpiredStatus: number;
  /** Spec: "Page size of each route other than the default: not shown" (50 "may differ per route"). */
  customerPageSize: number;
  /** How many customers the collection holds. */
  customerCount: number;
  /** Spec: id "may be absent in some errors". */
  errorIds: boolean;
  /** Spec: errors is "filled when the error has several messages": 'always' sends [] otherwise. */
  errorsField: 'always' | 'when-several';
  /** Status of wrong client credentials on the token route (spec: shape shown, status not). */
  wrongClientStatus: 400 | 401;
  /** Status of an API key sent to a bearer-only route (spec: "Each route states which it accepts"). */
  apiKeyOnBearerRouteStatus: 401 | 403;
  /** The token response's fields beyond access_token (spec: "not shown"). */
  tokenExtras: 'oauth' | 'with-refresh-token';
  /** Spec: "Response shapes of /v1/feature-flags: not shown": an object with a list, a bare list, a map. */
  flagShape: 'object' | 'array' | 'map';
  /** A POST /pets with an id that exists: replaced, or refused 409 (spec: not shown). */
  duplicatePet: 'replace' | 'conflict';
  /** Pet values a typical server refuses though the spec gives no bound: an empty or long name
   * (over 100 characters), an id of 0 or below (spec: "id: integer, int64", nothing more). */
  petBounds: 'none' | 'typical';
  /** Spec: "Authentication of the demo pet operations: not shown": none, or the main service's API key. */
  petAuth: 'none' | 'api-key';
  /** Answers carry fields beyond the ones the spec lists: pagination.page_size, the envelope's
   * links, a pet's created_at (the spec lists fields; it does not forbid others). */
  extraFields: boolean;
  /** Pets the store starts with. */
  petCount: number;
  /** IETF RateLimit headers on every limited route's answer. */
  rateLimitHeaders: boolean;
  /** Spec: the error body's path is the "route that caused the error". */
  errorPath: 'route' | 'request-path';
  /** A JSON content type of errors: plain application/json or the problem+json suffix type. */
  errorMediaType: 'application/json' | 'application/problem+json';
  /** Spec: timestamp is "ISO 8601 date-time": 'offset' writes +00:00 and no milliseconds,
   * 'plus-one' the same moment at +01:00. */
  timestampStyle: 'utc-z' | 'offset' | 'plus-one';
  /** A bearer token the server does not know: INVALID_TOKEN, or SESSION_EXPIRED as a server that
   * forgets expired sessions must answer (it cannot tell an old token from a made-up one). */
  unknownToken: 'invalid' | 'session-expired';
  /** Spec: "Error responses of the demo pet operations: not shown". */
  petErrors: 'json' | 'text';
  /** Spec: POST /pets answers "201 with no body shown": 'created' echoes the stored pet. */
  petCreatedBody: 'none' | 'created';
  /** Spec silent on limit > 100: clamp it, or refuse with 400. */
  limitAbove100: 'clamp' | 'refuse';
  /** How the deprecation of GET /pets/{petId} is announced (RFC 9745 or the older draft's `true`). */
  deprecationHeader: 'true' | 'date';
  /** Token lifetime in seconds (spec: "Token lifetime: not shown"). */
  tokenTtlSeconds: number;
  /** Requests per credential per window (spec: "Rate limit values: not shown"). */
  rateLimit: number;
  /** Seconds of the limiter's window. */
  rateWindowSeconds: number;
  /** When set, the feature "instant-payouts" is switched on and off every so many seconds, so a
   * watcher of GET /v1/feature-flags can see the cache hold and renew (no control API). */
  flagFlipEverySeconds?: number;
  /** Main-service routes whose feature is disabled: route -> feature name. */
  disabledFeatures: Record<string, string>;
  /** API keys pinned to an address this machine never uses (spec: API key 3). */
  pinnedIp: string;
  breakRule?: BrokenRule;
}

export const DEFAULT_OPTIONS: IndependentOptions = {
  sessionExpiredStatus: 440,
  customerPageSize: 25,
  customerCount: 57,
  errorIds: false,
  errorsField: 'always',
  errorPath: 'route',
  wrongClientStatus: 401,
  apiKeyOnBearerRouteStatus: 403,
  tokenExtras: 'oauth',
  flagShape: 'object',
  duplicatePet: 'replace',
  petBounds: 'none',
  petAuth: 'none',
  extraFields: false,
  petCount: 130,
  rateLimitHeaders: false,
  errorMediaType: 'application/json',
  timestampStyle: 'utc-z',
  unknownToken: 'invalid',
  petErrors: 'json',
  petCreatedBody: 'none',
  limitAbove100: 'clamp',
  deprecationHeader: 'true',
  tokenTtlSeconds: 900,
  rateLimit: 20_000,
  rateWindowSeconds: 60,
  disabledFeatures: { '/v1/reports': 'reports' },
  pinnedIp: '10.20.30.40',
};
