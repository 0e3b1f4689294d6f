// The spec's rules, each with a stable id. Ids never change meaning once published: reports,
// fault tables and CI history refer to them. Add new rules with new ids; retire, never reuse.
//
// A level comes from the spec's words. MUST: the spec states it. SHOULD: the spec recommends it (a
// failed SHOULD is reported as non-strict and fails the run only with CONFORMANCE_STRICT=1; the
// spec states no recommendation of its own today, so no rule is SHOULD). ADVICE: what the spec
// does not state, from another standard or a convention named in `source`: reported apart,
// never failing a run, strict or not.

export const AREAS = [
  'auth-token',
  'api-key',
  'bearer',
  'customers-pagination',
  'errors',
  'user',
  'feature-flags',
  'token-renewal',
  'rate-limit',
  'pets',
  'operations',
  'generated',
] as const;

export type Area = (typeof AREAS)[number];
export type RuleLevel = 'MUST' | 'SHOULD' | 'ADVICE';

export interface Rule {
  readonly id: string;
  readonly area: Area;
  readonly level: RuleLevel;
  /** The spec's words (or, for a SHOULD, the convention), short enough for a report row. */
  readonly text: string;
  /** Where in the spec it stands. */
  readonly section: string;
  /**
   * 'client' for a rule that binds the client, not the service (a server cannot break it): it is
   * verified by the self-tests of the suite's own client, named in `verifiedBy`.
   */
  readonly scope?: 'client';
  readonly verifiedBy?: string;
  /** ADVICE only: the standard or convention it comes from (the spec does not state it). */
  readonly source?: string;
}

const rule = (
  id: string,
  area: Area,
  level: RuleLevel,
  section: string,
  text: string,
  extra: Pick<Rule, 'scope' | 'verifiedBy' | 'source'> = {},
): Rule => ({ id, area, level, section, text, ...extra });

export const RULES: readonly Rule[] = [
  // Token route
  rule(
    'TOK-01',
    'auth-token',
    'MUST',
    'Endpoints / Main service',
    'POST /v1/auth/token with client_id and client_secret returns a JSON object containing access_token (string).',
  ),
  rule(
    'TOK-02',
    'auth-token',
    'MUST',
    'Authentication / Bearer token 2',
    'The access_token obtained from the token route is accepted as Authorization: Bearer <token>.',
  ),
  rule(
    'TOK-03',
    'auth-token',
    'MUST',
    'Token request and response; Errors',
    'Wrong or missing client credentials are refused with a 4xx and the error body (client_secret must be kept confidential).',
  ),

  rule(
    'SEC-01',
    'auth-token',
    'MUST',
    'Token request and response (client_secret must be kept confidential); API key 4',
    'No answer carries a configured secret (client secret, API key secret) or an access token the request did not ask for (judged on every exchange of the run).',
  ),

  // API key
  rule(
    'KEY-01',
    'api-key',
    'MUST',
    'Authentication / API key',
    'GET /v1/customers accepts the API key in the x-api-key-id and x-api-key-secret headers.',
  ),
  rule(
    'KEY-02',
    'api-key',
    'MUST',
    'Authentication / API key 1',
    'An unknown key id or a wrong key secret is refused with a 4xx and the error body.',
  ),
  rule(
    'KEY-03',
    'api-key',
    'MUST',
    'Authentication / API key 3',
    'A key pinned to an IP address is accepted only from that address, even if the key leaks.',
  ),

  // Bearer
  rule(
    'BEA-01',
    'bearer',
    'MUST',
    'Authentication / Bearer token 1',
    'Bearer routes accept Authorization: Bearer <ACCESS_TOKEN>.',
  ),
  rule(
    'BEA-02',
    'bearer',
    'MUST',
    'Authentication',
    'A protected route called with no credentials is refused with a 4xx and the error body.',
  ),
  rule(
    'BEA-03',
    'bearer',
    'MUST',
    'Endpoints / Main service (Auth column)',
    'GET /v1/user/me and GET /v1/feature-flags accept only a bearer token: an API key is refused with a 4xx and the error body.',
  ),
  rule(
    'BEA-04',
    'bearer',
    'MUST',
    'Authentication / Bearer token',
    'An invalid bearer token is refused with a 4xx and the error body.',
  ),
  rule(
    'BEA-05',
    'bearer',
    'MUST',
    'Authentication / Bearer token 1; Each route states which it accepts',
    'An issued token carries a bearer credential only as Authorization: Bearer <ACCESS_TOKEN>: the same token under another scheme (Basic, Token), with no scheme, or after another word is refused with a 4xx and the error body.',
  ),

  // Customers and pagination
  rule(
    'PAG-01',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'GET /v1/customers returns the paged envelope: pagination (object), data (array), extra (object).',
  ),
  rule(
    'PAG-02',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'The pagination fields total_items, showing_items, total_pages, current_page, previous_page and next_page are all integers.',
  ),
  rule(
    'PAG-03',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'showing_items equals the number of items returned in the page.',
  ),
  rule(
    'PAG-04',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'total_items equals the number of items in the collection: walking every page yields each item exactly once.',
  ),
  rule(
    'PAG-05',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'total_pages is the number of pages: the walk ends on page total_pages, and it is the same on every page.',
  ),
  rule(
    'PAG-06',
    'customers-pagination',
    'MUST',
    'Paged collection envelope; Limits',
    'current_page is the page returned: the requested page, or the first page when page is not given.',
  ),
  rule(
    'PAG-07',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'previous_page equals the first page when the current page is the first, otherwise the page before.',
  ),
  rule(
    'PAG-08',
    'customers-pagination',
    'MUST',
    'Paged collection envelope',
    'next_page equals the last page when the current page is the last, otherwise the page after.',
  ),
  rule(
    'PAG-09',
    'customers-pagination',
    'MUST',
    'Errors; Limits',
    'A page greater than total_pages yields VALIDATION_ERROR with status 422.',
  ),
  rule(
    'PAG-10',
    'customers-pagination',
    'MUST',
    'Errors',
    'The 422 for a page beyond total_pages states the maximum page number in its message.',
  ),
  rule(
    'PAG-11',
    'customers-pagination',
    'MUST',
    'Errors',
    'The 422 for a page beyond total_pages has errors as an empty array and handled true.',
  ),
  rule(
    'PAG-12',
    'customers-pagination',
    'ADVICE',
    'Limits',
    'The default page size is 50 items (the spec allows it to differ per route).',
    { source: 'the spec\'s Limits: 50 items, which "may differ per route"' },
  ),
  rule(
    'PAG-13',
    'customers-pagination',
    'ADVICE',
    'Limits (page is an integer page number)',
    'A page of 0, a negative page or a non-integer page is refused with a 4xx and the error body (which 4xx is not shown; a 5xx breaks GNR-01, a MUST).',
    {
      source:
        'RFC 9110 §15.5 (a request the server will not process because of a client error is answered 4xx)',
    },
  ),
  rule(
    'PAG-14',
    'customers-pagination',
    'MUST',
    'Endpoints / Main service',
    'GET /v1/customers answers a bearer token with the page where the route takes one, and refuses it with 401 or 403 and the error body where it does not ("API key or bearer token as the route allows").',
  ),

  // Error body
  rule(
    'ERR-01',
    'errors',
    'MUST',
    'Error body',
    'Every error carries the error body, and its message (string) is always present.',
  ),
  rule(
    'ERR-02',
    'errors',
    'MUST',
    'Error body',
    'The error body has code (string), status_code (integer), timestamp (string), path (string) and handled (boolean); id, when present, is a string; errors, when present, is an array of strings.',
  ),
  rule('ERR-03', 'errors', 'MUST', 'Error body', 'status_code equals the HTTP status code of the response.'),
  rule('ERR-04', 'errors', 'MUST', 'Error body', 'timestamp is an ISO 8601 date-time.'),
  rule('ERR-05', 'errors', 'MUST', 'Error body', 'path names the route that caused the error.'),
  rule(
    'ERR-06',
    'errors',
    'MUST',
    'Error body ("errors | array of string | filled when the error has several messages")',
    'errors, where an error body carries it, is an array of strings; it may be absent when the error has one message (only message is "always present").',
  ),
  rule(
    'ERR-07',
    'errors',
    'MUST',
    'Endpoints ("JSON is the payload format")',
    'Error responses are JSON, with a JSON content type.',
  ),
  // MUST: the table states when errors is filled, as it states the other fields. "then it is used
  // instead of message" tells the client what to read; it says nothing of what message holds then,
  // so nothing is asked of message, nor of each entry beyond ERR-06's string. A list of one that is
  // the message itself is tolerated: it only restates it (a client reading errors shows the message),
  // and a server written from the spec alone answers so (test/support/independent-server, its token
  // route); a list of one that is not the message is neither several messages nor the one.
  rule(
    'ERR-08',
    'errors',
    'MUST',
    'Error body ("errors | array of string | filled when the error has several messages; then it is used instead of message")',
    'errors, when filled, holds several messages (two or more): an error of one message leaves it empty or absent, or at most restates that message (a list of one that is not the message is neither).',
  ),

  // User
  rule(
    'USR-01',
    'user',
    'MUST',
    'Endpoints / Main service',
    'GET /v1/user/me with a bearer token returns 200 and a JSON object: the data of the logged-in user.',
  ),

  // Feature flags
  rule(
    'FLG-01',
    'feature-flags',
    'MUST',
    'Endpoints / Main service',
    'GET /v1/feature-flags with a bearer token returns 200 and JSON: every feature and its current state for the user.',
  ),
  rule(
    'FLG-02',
    'feature-flags',
    'MUST',
    'Endpoints rule 1; Limits',
    'Feature flag data is renewed at most once per 60 seconds: calls within the window return identical data, even after a flag changed.',
  ),
  rule(
    'FLG-03',
    'feature-flags',
    'MUST',
    'Endpoints rule 1',
    'Feature flag data is renewed once 60 seconds have passed since the last call.',
  ),
  rule(
    'FLG-04',
    'feature-flags',
    'MUST',
    'Endpoints rule 2; Errors',
    'An operation whose feature is disabled fails with status 503.',
  ),
  rule(
    'FLG-05',
    'feature-flags',
    'MUST',
    'Errors',
    'The error of a disabled feature has code FEATURE_FLAG_DISABLED and status_code 503.',
  ),
  rule(
    'FLG-06',
    'feature-flags',
    'MUST',
    'Errors',
    'The message of FEATURE_FLAG_DISABLED names the unavailable feature.',
  ),

  // Token renewal
  rule(
    'REN-01',
    'token-renewal',
    'MUST',
    'Authentication / Bearer token 4',
    'A request with an expired session gets an error with code SESSION_EXPIRED (whatever its HTTP status).',
  ),
  rule(
    'REN-02',
    'token-renewal',
    'MUST',
    'Authentication / Bearer token 4',
    'After SESSION_EXPIRED, a new token from the token route is accepted and the repeated request succeeds.',
  ),
  rule(
    'REN-03',
    'token-renewal',
    'MUST',
    'Authentication / Bearer token 4',
    'While one renewal runs, other failed requests wait and are repeated with the new token: one renewal serves every waiting request.',
  ),
  rule(
    'REN-04',
    'token-renewal',
    'MUST',
    'Authentication / Bearer token 4',
    'A repeated SESSION_EXPIRED for the same request is final: the request is repeated once, not again.',
    { scope: 'client', verifiedBy: 'test/client/token-manager.test.ts' },
  ),

  // Rate limit
  rule(
    'RATE-01',
    'rate-limit',
    'ADVICE',
    'Limits (a rate limiter exists)',
    'A caller over the limit is answered 429 Too Many Requests.',
    { source: 'RFC 6585 §4 (429 Too Many Requests)' },
  ),
  rule(
    'RATE-05',
    'rate-limit',
    'MUST',
    'Limits ("A rate limiter exists")',
    'A rate limiter exists: a caller far over a limit the run knows (one it set) is refused.',
  ),
  rule(
    'RATE-02',
    'rate-limit',
    'MUST',
    'Errors ("Errors use the error body")',
    "The rate limiter's answer carries the error body.",
  ),
  rule(
    'RATE-03',
    'rate-limit',
    'ADVICE',
    'Limits (convention)',
    'A 429 carries Retry-After (seconds or an HTTP date).',
    { source: 'RFC 6585 §4 and RFC 9110 §10.2.3 (Retry-After)' },
  ),
  rule(
    'RATE-04',
    'rate-limit',
    'ADVICE',
    'Limits (convention)',
    'A request sent after waiting Retry-After succeeds.',
    { source: 'RFC 9110 §10.2.3 (Retry-After: how long to wait before a follow-up request)' },
  ),

  // Pets (demo interface)
  rule('PET-01', 'pets', 'MUST', 'Demo pet interface', 'GET /pets returns 200 and a JSON array of Pet.'),
  rule(
    'PET-02',
    'pets',
    'MUST',
    'Pet',
    'A Pet has id (integer, int64) and name (string); tag, when present, is a string.',
  ),
  rule(
    'PET-03',
    'pets',
    'MUST',
    'Pet; States',
    'Pet.status, when present, is one of available, pending, sold.',
  ),
  rule('PET-04', 'pets', 'MUST', 'Demo pet interface', 'GET /pets returns at most limit items.'),
  rule(
    'PET-05',
    'pets',
    'MUST',
    'Demo pet interface; Limits',
    'limit has a maximum of 100: no answer to GET /pets holds more than 100 pets.',
  ),
  rule(
    'PET-06',
    'pets',
    'MUST',
    'Demo pet interface; Limits',
    'The default limit is 100: GET /pets without limit returns as many pets as with limit=100.',
  ),
  rule('PET-07', 'pets', 'MUST', 'Demo pet interface', 'POST /pets with a valid Pet answers 201.'),
  rule(
    'PET-08',
    'pets',
    'MUST',
    'Demo pet interface',
    'A created pet is readable with GET /pets/{petId}: 200 and the same Pet.',
  ),
  rule(
    'PET-09',
    'pets',
    'MUST',
    'Demo pet interface (id and name required)',
    'POST /pets without id or name is refused with a 4xx.',
  ),
  rule(
    'PET-10',
    'pets',
    'ADVICE',
    'Versioning (showPetById is deprecated)',
    'GET /pets/{petId} announces its deprecation (a Deprecation header).',
    { source: 'RFC 9745 (the Deprecation header field)' },
  ),
  rule(
    'PET-11',
    'pets',
    'ADVICE',
    'Demo pet interface (convention)',
    'GET /pets/{petId} for an unknown id answers 404.',
    { source: 'RFC 9110 §15.5.5 (404 Not Found)' },
  ),
  rule(
    'PET-12',
    'pets',
    'MUST',
    'Demo pet interface (GET /pets: "JSON array of Pet (a paged array)")',
    'GET /pets lists the pets that exist: once a pet is created and reads back, GET /pets?limit=1 holds one pet and GET /pets is not empty.',
  ),
  rule(
    'PET-13',
    'pets',
    'ADVICE',
    'Demo pet interface (GET /pets: "a paged array")',
    'The x-next link of GET /pets, where one is given, leads on: the page it links to is not the page that gave it.',
    { source: 'the demo\'s OpenAPI document (x-next: "A link to the next page of responses")' },
  ),

  // Shapes and payload format, checked on every operation
  rule(
    'GEN-01',
    'operations',
    'MUST',
    'Endpoints ("JSON is the payload format")',
    "Every 2xx answer with a body is JSON, with a JSON content type, and validates against the operation's schema.",
  ),

  // Generated requests: every operation probed with schema-made valid and invalid input
  rule(
    'GNR-01',
    'generated',
    'MUST',
    'Errors (a 5xx is a server failure)',
    "No request is answered with a 5xx, valid or not: a server error in answer to a client's input is a defect (a 503 FEATURE_FLAG_DISABLED on a disabled route is the only exception).",
  ),
  rule(
    'GNR-02',
    'generated',
    'MUST',
    'Endpoints; Resources and their fields',
    "A request that honours every constraint of the operation's schema is answered 2xx with a schema-valid answer, or with a 4xx the spec allows (a page beyond the last, unknown credentials, an unknown pet).",
  ),
  rule(
    'GNR-03',
    'generated',
    'MUST',
    'Endpoints; Resources and their fields',
    'A request that breaks one constraint the spec shows (a required field left out, a field of another type than shown, a value outside the shown enum, a negative limit, a body that is not JSON or is empty) is refused with a 4xx (and, on the main service, the error body). Where the spec is silent (request media types, unknown properties, a limit above 100 or of 0, a page of 0, negative or not an integer, integer-looking strings, formats) any answer but a 5xx passes, and a 2xx must still match the answer schema.',
  ),
  rule(
    'GNR-04',
    'generated',
    'MUST',
    'Demo pet interface (POST /pets, GET /pets/{petId})',
    'What a write accepts reads back equal: a created pet is answered by GET /pets/{petId} with the fields it was created with.',
  ),

  // Every body declared JSON, read as bytes (INV-JSON-BYTES, INV-JSON-KEYS)
  rule(
    'GEN-02',
    'operations',
    'MUST',
    'Endpoints ("JSON is the payload format")',
    'Every body declared JSON (application/json or +json) is a JSON text as RFC 8259 §8.1 has it: UTF-8 without a byte order mark, that parses, as many bytes as its Content-Length says.',
  ),
  rule(
    'GEN-03',
    'operations',
    'ADVICE',
    'Endpoints ("JSON is the payload format")',
    'No object of a body declared JSON holds a key twice with different values (readers differ on which one they keep).',
    { source: 'RFC 8259 §4 ("The names within an object SHOULD be unique")' },
  ),
];

const byId = new Map(RULES.map((r) => [r.id, r]));

/**
 * The level of a check from the rules it names: its strongest (MUST, then SHOULD, then ADVICE). A
 * check naming no rule, or an unknown one, is MUST, so a failure of it can never pass quietly.
 */
export function levelOfRules(rules: readonly string[]): RuleLevel {
  const levels = rules.map((id) => findRule(id)?.level ?? 'MUST');
  if (levels.length === 0 || levels.includes('MUST')) return 'MUST';
  return levels.includes('SHOULD') ? 'SHOULD' : 'ADVICE';
}

/** Whether a failure at this level fails the run: MUST always, SHOULD when strict, ADVICE never. */
export function failsTheRun(level: RuleLevel, strict: boolean): boolean {
  return level === 'MUST' || (level === 'SHOULD' && strict);
}

export function findRule(id: string): Rule | undefined {
  return byId.get(id);
}
