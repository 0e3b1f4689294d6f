// The named faults of the reference server. Each one breaks exactly ONE rule of the catalogue
// (src/rules/catalogue.ts, named by its plain id so this folder imports nothing of the suite) and
// leaves the server otherwise correct, so the fault matrix can show that a check of that rule
// catches it. A fault that only reshapes an answer carries its `mutate` here (src/reference/reshape.ts),
// applied once after routing; the others are branches where they change behaviour.
import type { Reply } from './reply.ts';
import { type Mutate, RESHAPES, type ReshapeContext } from './reshape.ts';

export interface FaultInfo {
  readonly name: string;
  /** The catalogue rule id the fault breaks. */
  readonly rule: string;
  /**
   * General rules whose own words the fault breaks too, because they restate its rule for every
   * answer of a kind (GEN-01: every 2xx matches its schema; GNR-02: a valid request is answered
   * schema-valid; TOK-03: wrong client credentials are refused). A check of one of them that
   * fails under the fault is caught for its own reason.
   */
  readonly alsoBreaks?: readonly string[];
  readonly description: string;
  /**
   * The suites (by area) whose exchanges show the fault, when not only its rule's: a fault judged
   * over every exchange of the run (src/checks/invariants.ts) shows in answers other suites provoke.
   */
  readonly areas?: readonly string[];
}

// Generic so each name keeps its literal type: FaultName catches a misspelt fault at compile time.
const fault = <N extends string>(
  name: N,
  rule: string,
  description: string,
  mutate?: Mutate,
  areas?: readonly string[],
) => ({
  name,
  rule,
  description,
  mutate,
  areas,
});

const TABLE = [
  // Token route
  fault(
    'token-missing-access-token',
    'TOK-01',
    'the token answer names the token `token` instead of `access_token`',
    RESHAPES.tokenMissingAccessToken,
  ),
  fault('token-not-accepted', 'TOK-02', 'tokens from the token route are refused by bearer routes (401)'),
  fault('token-wrong-secret-accepted', 'TOK-03', 'a known client_id gets a token whatever its client_secret'),
  fault(
    'token-unknown-client-accepted',
    'TOK-03',
    'an unknown client_id gets a token (of the default client) whatever its client_secret',
  ),
  fault(
    'token-empty-body-accepted',
    'TOK-03',
    'a body with neither client_id nor client_secret (`{}`) gets a token of the default client',
  ),
  fault(
    'token-client-secret-prefix-compared',
    'TOK-03',
    'the token route compares client_secret without its last character (a near miss gets a token)',
  ),
  fault(
    'token-answer-echoes-client-secret',
    'SEC-01',
    'the token answer echoes the client credentials it was sent (client_secret included)',
    undefined,
    ['auth-token'],
  ),
  // API key
  fault('api-key-refused-on-customers', 'KEY-01', 'GET /v1/customers refuses API keys with 401'),
  fault(
    'customers-refuses-both-schemes',
    'KEY-01',
    'GET /v1/customers refuses the API key with 401 and a bearer token with 403, each with the error body: a route that takes neither scheme',
  ),
  fault('api-key-wrong-secret-accepted', 'KEY-02', 'a known API key id is accepted with any secret'),
  fault(
    'api-key-unknown-id-accepted',
    'KEY-02',
    'an unknown API key id is accepted (as the default key) whatever its secret',
  ),
  fault(
    'api-key-id-alone-accepted',
    'KEY-02',
    'an API key id sent without its secret is accepted as that key',
  ),
  fault(
    'api-key-secret-prefix-compared',
    'KEY-02',
    'the API key secret is compared without its last character (a near miss is accepted)',
  ),
  fault('pinned-key-accepted-anywhere', 'KEY-03', 'the pinned API key is accepted from any address'),
  fault(
    'pinned-key-refused-from-its-address',
    'KEY-03',
    'a pinned API key is refused from its own address too (pinning locks the key out)',
  ),
  fault(
    'pinned-key-trusts-forwarded-for',
    'KEY-03',
    "a pinned key's address is read from X-Forwarded-For when the client sends one",
  ),
  // Bearer
  fault(
    'bearer-lowercase-scheme-only',
    'BEA-01',
    '`Authorization: Bearer x` is refused; only the lower-case `bearer x` is accepted',
  ),
  fault(
    'bearer-scheme-not-checked',
    'BEA-05',
    'the scheme word of `Authorization` is not checked: `Basic <token>` or `Token <token>` with an issued token is accepted',
  ),
  fault(
    'no-credentials-accepted',
    'BEA-02',
    'protected routes answer 200 without credentials, as the default user',
  ),
  fault('user-me-accepts-api-key', 'BEA-03', 'GET /v1/user/me accepts an API key'),
  fault('flags-accept-api-key', 'BEA-03', 'GET /v1/feature-flags accepts an API key'),
  fault('invalid-bearer-accepted', 'BEA-04', 'any bearer string is accepted, as the default client'),
  // Customers and pagination
  fault(
    'envelope-missing-extra',
    'PAG-01',
    'the paged envelope has no `extra` object',
    RESHAPES.envelopeMissingExtra,
  ),
  fault(
    'pagination-numbers-as-strings',
    'PAG-02',
    'the pagination numbers are sent as strings',
    RESHAPES.paginationNumbersAsStrings,
  ),
  fault(
    'showing-items-off-by-one',
    'PAG-03',
    'showing_items is one more than the items in the page',
    RESHAPES.showingItemsOffByOne,
  ),
  fault(
    'total-items-off-by-one',
    'PAG-04',
    'total_items is one more than the items in the collection',
    RESHAPES.totalItemsOffByOne,
  ),
  fault(
    'total-items-left-after-page',
    'PAG-04',
    'total_items counts the items not yet shown (total - current_page * showing_items, at least 0): the last page shows more than total_items',
    RESHAPES.totalItemsLeftAfterPage,
  ),
  fault(
    'pages-overlap',
    'PAG-04',
    "each page after the first repeats the previous page's last item and drops its own last",
  ),
  fault(
    'total-pages-off-by-one',
    'PAG-05',
    'total_pages is one more than the number of pages',
    RESHAPES.totalPagesOffByOne,
  ),
  fault('current-page-zero-based', 'PAG-06', 'current_page counts from 0', RESHAPES.currentPageZeroBased),
  fault(
    'previous-page-zero-on-first',
    'PAG-07',
    'previous_page is 0 on the first page',
    RESHAPES.previousPageZeroOnFirst,
  ),
  fault(
    'next-page-beyond-last',
    'PAG-08',
    'next_page is total_pages + 1 on the last page',
    RESHAPES.nextPageBeyondLast,
  ),
  fault('page-beyond-last-200', 'PAG-09', 'a page beyond total_pages answers 200 with an empty page'),
  fault(
    'page-wraps-32-bit',
    'PAG-09',
    'the page number is read as an unsigned 32-bit integer: page 2^32+1 answers 200 with page 1',
  ),
  fault(
    'page-beyond-last-400',
    'PAG-09',
    'a page beyond total_pages answers 400 instead of 422 (same body otherwise)',
    RESHAPES.pageBeyondLast400,
  ),
  fault(
    'page-beyond-message-without-max',
    'PAG-10',
    'the 422 message does not state the maximum page',
    RESHAPES.pageBeyondMessageWithoutMax,
  ),
  fault(
    'page-beyond-message-page-before',
    'PAG-10',
    'the 422 message states the page before the requested one as the maximum page',
    RESHAPES.pageBeyondMessagePageBefore,
  ),
  fault(
    'page-beyond-errors-filled',
    'PAG-11',
    'the 422 carries its message in `errors` as well',
    RESHAPES.pageBeyondErrorsFilled,
  ),
  fault('page-beyond-unhandled', 'PAG-11', 'the 422 says handled: false', RESHAPES.pageBeyondUnhandled),
  fault('page-size-20', 'PAG-12', 'the default page size is 20'),
  fault('page-zero-first-page', 'PAG-13', 'page=0 answers 200 with the first page instead of refusing it'),
  fault(
    'page-invalid-first-page',
    'PAG-13',
    'a negative or non-integer page (page=-1, page=abc, page=1.5) answers 200 with the first page',
  ),
  fault(
    'customers-bearer-refused-404',
    'PAG-14',
    'GET /v1/customers answers a bearer token with 404, neither the page nor a 401/403 refusal',
  ),
  // Error body
  fault('error-missing-message', 'ERR-01', 'error bodies have no `message`', RESHAPES.errorMissingMessage),
  fault('error-missing-handled', 'ERR-02', 'error bodies have no `handled`', RESHAPES.errorMissingHandled),
  fault(
    'status-code-mismatch',
    'ERR-03',
    'status_code is always 400 in error bodies',
    RESHAPES.statusCodeMismatch,
  ),
  fault(
    'session-expired-status-code-mismatch',
    'ERR-03',
    'the SESSION_EXPIRED error body says status_code 400 whatever its HTTP status',
    RESHAPES.sessionExpiredStatusCodeMismatch,
    ['token-renewal'],
  ),
  fault(
    'timestamp-not-iso',
    'ERR-04',
    'timestamp is written like "23/11/2026 10:00"',
    RESHAPES.timestampNotIso,
  ),
  fault('error-path-wrong', 'ERR-05', 'path is always "/"', RESHAPES.errorPathWrong),
  fault(
    'errors-field-not-strings',
    'ERR-06',
    'error bodies carry `errors` as a string, not an array of strings',
    RESHAPES.errorsFieldNotStrings,
  ),
  fault(
    'errors-filled-one-message',
    'ERR-08',
    "errors of one message carry `errors` filled with one string that is not the message (the error's code; the 422 beyond the last page keeps its `[]`)",
    RESHAPES.errorsFilledOneMessage,
  ),
  fault(
    'error-text-plain',
    'ERR-07',
    'error responses are sent as text/plain (the body is still JSON text)',
    RESHAPES.errorTextPlain,
  ),
  // User
  fault(
    'user-me-array',
    'USR-01',
    'GET /v1/user/me answers a JSON array holding the user',
    RESHAPES.userMeArray,
  ),
  // Feature flags
  fault('flags-html', 'FLG-01', 'GET /v1/feature-flags answers text/html', RESHAPES.flagsHtml),
  fault('flags-not-cached', 'FLG-02', 'feature flag data is renewed on every call'),
  fault('flags-never-renewed', 'FLG-03', 'feature flag data is never renewed once cached'),
  fault(
    'feature-disabled-403',
    'FLG-04',
    'a disabled feature answers 403 (code FEATURE_FLAG_DISABLED, status_code 403)',
    RESHAPES.featureDisabled403,
  ),
  fault('feature-disabled-ignored', 'FLG-04', 'a route whose feature is disabled answers 200 anyway'),
  fault(
    'feature-disabled-wrong-code',
    'FLG-05',
    'a disabled feature answers code FEATURE_DISABLED',
    RESHAPES.featureDisabledWrongCode,
  ),
  fault(
    'feature-disabled-generic-message',
    'FLG-06',
    'a disabled feature answers the message "Service unavailable"',
    RESHAPES.featureDisabledGenericMessage,
  ),
  // Token renewal
  fault('expired-token-accepted', 'REN-01', 'expired tokens are still accepted'),
  fault(
    'flags-expired-token-accepted',
    'REN-01',
    'GET /v1/feature-flags accepts expired tokens (the other bearer routes answer SESSION_EXPIRED)',
  ),
  fault(
    'session-expired-other-code',
    'REN-01',
    'an expired token answers code TOKEN_EXPIRED',
    RESHAPES.sessionExpiredOtherCode,
  ),
  fault(
    'renewal-returns-stale-token',
    'REN-02',
    "the token route hands back the client's expired token again when it has one",
  ),
  fault(
    'token-single-use',
    'REN-03',
    'a token is accepted for one request only (later uses answer SESSION_EXPIRED)',
  ),
  // Rate limit
  fault('rate-limit-503', 'RATE-01', 'a caller over the limit is answered 503 instead of 429'),
  fault('rate-limit-500', 'RATE-01', 'a caller over the limit is answered 500 instead of 429'),
  fault(
    'rate-limit-missing',
    'RATE-05',
    'no request is ever refused: the limiter counts (and its headers announce the policy) but never answers 429',
  ),
  fault('rate-limit-no-body', 'RATE-02', 'the 429 has an empty body'),
  fault('rate-limit-no-retry-after', 'RATE-03', 'the 429 has no Retry-After'),
  fault(
    'retry-after-too-short',
    'RATE-04',
    'Retry-After is shorter than the wait until the window resets (1 s, or 0 when the wait is 1 s or less)',
  ),
  fault(
    'retry-after-capped-at-one-second',
    'RATE-04',
    'Retry-After never says more than 1 s, whatever the wait until the window resets',
  ),
  // Pets
  fault(
    'pets-wrapped-in-object',
    'PET-01',
    'GET /pets answers {"pets": [...]} instead of an array',
    RESHAPES.petsWrappedInObject,
  ),
  fault('pet-id-as-string', 'PET-02', 'pet ids are sent as strings', RESHAPES.petIdAsString),
  fault(
    'pet-status-outside-enum',
    'PET-03',
    'some listed pets have status "adopted"',
    RESHAPES.petStatusOutsideEnum,
  ),
  fault('pets-limit-ignored', 'PET-04', 'GET /pets ignores limit'),
  fault('pets-list-empty', 'PET-12', 'GET /pets answers an empty array, whatever pets exist'),
  fault('pets-limit-over-100', 'PET-05', 'GET /pets honours a limit above 100'),
  fault('pets-default-limit-10', 'PET-06', 'GET /pets without limit returns 10 pets'),
  fault('pets-limit-100-lists-none', 'PET-06', 'GET /pets?limit=100 answers an empty list'),
  fault('create-pet-200', 'PET-07', 'POST /pets answers 200 instead of 201', RESHAPES.createPet200),
  fault(
    'created-pet-body-not-json',
    'GEN-01',
    'POST /pets answers 201 with a body declared application/json that is not JSON',
    RESHAPES.createdPetBodyNotJson,
    ['pets'],
  ),
  fault(
    'pet-status-required',
    'PET-07',
    'POST /pets refuses a pet without status (400), as if status were required',
  ),
  fault('created-pet-lost', 'PET-08', 'POST /pets answers 201 but does not store the pet'),
  fault(
    'negative-pet-id-unreadable',
    'PET-08',
    'POST /pets accepts a negative id (201), but GET /pets/{petId} refuses it (400)',
  ),
  fault(
    'duplicate-pet-kept',
    'PET-08',
    'POST /pets with an id already taken answers 201 but keeps the pet stored before',
  ),
  fault(
    'refused-taken-id-replaces-pet',
    'PET-08',
    'POST /pets refuses an id already taken (409), yet stores the pet sent in place of the one created first',
  ),
  fault(
    'refused-pet-id-reserved',
    'PET-07',
    'POST /pets keeps the id of a pet it refused: a valid pet with that id is then refused (409)',
  ),
  fault('pet-without-name-accepted', 'PET-09', 'POST /pets accepts a pet without name'),
  fault('pet-null-body-500', 'PET-09', 'POST /pets crashes into a 500 on the JSON body null'),
  fault('negative-pet-id-500', 'GNR-01', 'POST /pets answers 500 to a pet with a negative id', undefined, [
    'pets',
  ]),
  fault('taken-pet-id-500', 'GNR-01', 'POST /pets answers 500 to a pet whose id is taken', undefined, [
    'pets',
  ]),
  fault(
    'pet-without-id-accepted',
    'PET-09',
    'POST /pets accepts a pet without id and gives it the next free id',
  ),
  fault('deprecation-header-empty', 'PET-10', 'GET /pets/{petId} sends an empty Deprecation header'),
  fault(
    'no-deprecation-header',
    'PET-10',
    'GET /pets/{petId} sends no Deprecation header',
    RESHAPES.noDeprecationHeader,
  ),
  fault('unknown-pet-400', 'PET-11', 'GET /pets/{petId} of an unknown id answers 400'),
  // Payload format
  fault(
    'customers-text-content-type',
    'GEN-01',
    'GET /v1/customers answers with content-type text/plain',
    RESHAPES.customersTextContentType,
  ),
  // Generated requests (suites/generated.test.ts)
  fault('page-zero-500', 'GNR-01', 'page=0 crashes into a 500'),
  fault('page-not-integer-500', 'GNR-01', 'a page that is not an integer (page=abc) crashes into a 500'),
  fault(
    'pet-id-not-integer-500',
    'GNR-01',
    'GET /pets/{petId} with a petId that is not digits crashes into a 500',
  ),
  fault('malformed-json-500', 'GNR-01', 'a request body that is not valid JSON crashes into a 500'),
  // What a schema-based generator sends at the edges (src/generate/mutations.ts): one class each.
  fault('pet-unknown-field-500', 'GNR-01', 'POST /pets crashes into a 500 on a field the Pet does not list'),
  fault(
    'pet-id-unsafe-integer-500',
    'GNR-01',
    'POST /pets crashes into a 500 on an id beyond 2^53 (9007199254740993, or beyond int64)',
  ),
  fault(
    'limit-unsafe-integer-500',
    'GNR-01',
    'GET /pets crashes into a 500 on a limit beyond 2^53 (limit=9007199254740993, or beyond int64)',
  ),
  fault(
    'limit-number-notation-500',
    'GNR-01',
    'GET /pets crashes into a 500 on a limit written as 1e2, 007, 1.0 or -0',
  ),
  fault('pet-long-text-500', 'GNR-01', 'POST /pets crashes into a 500 on a name or tag over 1000 characters'),
  fault('pet-non-ascii-500', 'GNR-01', 'POST /pets crashes into a 500 on a name or tag that is not ASCII'),
  fault(
    'token-empty-string-500',
    'GNR-01',
    'the token route crashes into a 500 on an empty client_id or client_secret',
  ),
  // Bodies no generated request sends (suites/errors.test.ts ERR-BODY-*): caught by the errors area.
  fault(
    'token-null-body-500',
    'GNR-01',
    'the token route crashes into a 500 on the JSON body null (read as an object)',
    undefined,
    ['errors'],
  ),
  fault(
    'token-no-content-type-500',
    'GNR-01',
    'the token route crashes into a 500 on a request without Content-Type (no body)',
    undefined,
    ['errors'],
  ),
  fault(
    'oversized-body-500',
    'GNR-01',
    'a token request body over the 1 MiB cap crashes into a 500 instead of its 413',
    undefined,
    ['errors'],
  ),
  // Crashes and hangs on input (GNR-01: worse than a 5xx, nothing is answered any more)
  fault(
    'garbled-request-crash',
    'GNR-01',
    'a garbled request line crashes the server: every later connection is dropped',
    undefined,
    ['generated'],
  ),
  fault(
    'header-overflow-crash',
    'GNR-01',
    'a request whose headers are too large crashes the server: every later connection is dropped',
    undefined,
    ['generated'],
  ),
  fault(
    'pets-next-page-hang',
    'GNR-01',
    "following GET /pets's x-next link (a list with `after`) hangs the server: nothing is answered any more",
    undefined,
    ['generated', 'pets'],
  ),
  fault(
    'unknown-route-500',
    'GNR-01',
    'a path no route has (GET /api/v1/conformance-unknown-route) crashes into a 500 instead of its 404',
    undefined,
    ['errors', 'pets'],
  ),
  fault(
    'unshown-method-500',
    'GNR-01',
    'a method a route does not take (OPTIONS /api/v1/customers) crashes into a 500 instead of its 405',
    undefined,
    ['errors', 'pets'],
  ),
  fault(
    'repeated-query-message-empty',
    'ERR-01',
    'a repeated query parameter (page=1&page=2) is refused with a 400 whose message is empty',
    undefined,
    ['errors'],
  ),
  fault(
    'repeated-query-500',
    'GNR-01',
    'a repeated query parameter (limit=1&limit=2, page=1&page=2) crashes into a 500',
  ),
  fault('pet-tag-refused', 'GNR-02', 'POST /pets refuses a valid pet that has a tag (400)'),
  fault(
    'token-wrong-type-accepted',
    'GNR-03',
    'the token route reads client_id and client_secret with String(), so ["id"] passes as "id"',
    undefined,
    // TOK-WRONG-TYPES (suites/auth-token.test.ts) sends exactly that, beside the generated requests.
    ['auth-token'],
  ),
  fault(
    'pets-limit-not-a-number-accepted',
    'GNR-03',
    'GET /pets answers a limit that is not an integer (limit=abc) as if none were given',
  ),
  fault(
    'pets-limit-leading-digits-read',
    'GNR-03',
    'GET /pets reads the leading digits of a limit (parseInt): limit=1x lists one pet',
  ),
  fault('nameless-pet-stored', 'GNR-03', 'POST /pets accepts and stores a pet without name'),
  fault(
    'pet-status-outside-enum-stored',
    'GNR-03',
    'POST /pets accepts and stores any status string (e.g. "adopted")',
  ),
  fault('pet-tag-dropped', 'GNR-04', 'POST /pets answers 201 but stores the pet without its tag'),
  fault(
    'pet-non-ascii-mangled',
    'GNR-04',
    'POST /pets stores a name or tag with each non-ASCII character replaced by "?"',
  ),
  // Caught only beside another answer (src/checks/relations.ts): each answer is right on its own.
  fault(
    'bearer-page-size-20',
    'PAG-12',
    'GET /v1/customers pages hold 20 items for a bearer token, 50 for an API key',
  ),
  fault(
    'bearer-page-zero-first-page',
    'PAG-13',
    'page=0 through a bearer token answers 200 with the first page (refused through an API key)',
  ),
  fault(
    'pets-next-link-repeats-page',
    'PET-13',
    'GET /pets ignores the `after` of its own x-next link: the link leads to the same page again',
    undefined,
    ['generated'],
  ),
  fault(
    'unknown-param-reverses-order',
    'PAG-06',
    'GET /v1/customers with a query parameter it does not know answers its pages from the collection in reverse order (the pagination numbers unchanged)',
    undefined,
    // BEA-EACH-FORM (suites/bearer.test.ts) asks the page in each form.
    ['bearer'],
  ),
  fault(
    'trailing-slash-skips-auth',
    'BEA-02',
    'GET /api/v1/customers/ (a trailing slash) answers the page without credentials',
  ),
  fault(
    'refused-pet-stored',
    'GNR-03',
    'POST /pets refuses a pet whose name is not a string (400), but stores it with its name as text',
    undefined,
    ['pets'],
  ),
  fault(
    'error-timestamp-hour-ahead',
    'ERR-04',
    'error timestamps are an hour ahead of the moment (local time written as UTC)',
    RESHAPES.errorTimestampHourAhead,
  ),
  // Every character in every field (src/generate/mutations.ts: characters, lone surrogates), and
  // every body declared JSON read as bytes (src/checks/json-bytes.ts: INV-JSON-BYTES, INV-JSON-KEYS).
  fault(
    'query-percent-500',
    'GNR-01',
    'a query value holding a percent sign or an escape that is no UTF-8 (%25, %FF) crashes into a 500 (the value is decoded twice)',
  ),
  fault(
    'path-not-utf8-500',
    'GNR-01',
    'GET /pets/{petId} crashes into a 500 on a petId whose escapes are no UTF-8 (%FF, %C3%28): the URIError escapes',
  ),
  fault(
    'lone-surrogate-500',
    'GNR-01',
    'a JSON body string holding a lone surrogate (\\ud800) crashes into a 500 (the token route and POST /pets)',
  ),
  fault(
    'body-not-utf8-500',
    'GNR-01',
    'a JSON body whose bytes are no UTF-8 (FF, C3 28 in a string) crashes into a 500 (the token route and POST /pets)',
  ),
  fault(
    'pet-error-bom',
    'GEN-02',
    'errors of the demo pet operations start with a UTF-8 byte order mark (EF BB BF), still declared application/json',
    RESHAPES.petErrorBom,
    ['pets'],
  ),
  fault(
    'error-latin1',
    'GEN-02',
    'error bodies are written in Latin-1 under charset=utf-8: a quoted value with é carries the byte E9, no UTF-8',
    RESHAPES.errorLatin1,
    ['pets'],
  ),
  fault(
    'error-duplicate-status-code',
    'GEN-03',
    'error bodies of the main service hold status_code twice: 500 first, the right status last',
    RESHAPES.errorDuplicateStatusCode,
    ['errors'],
  ),
  fault(
    'bearer-pages-repeat-first',
    'PAG-08',
    "GET /v1/customers through a bearer token answers every page with the first page's customers (the pagination numbers right): the page next_page names holds the same customers again",
  ),
  fault(
    'refused-scheme-revokes-token',
    'BEA-01',
    'an issued token sent under another scheme (Basic, Token) is refused, and forgotten: the same token as Bearer is then refused as not valid (401 INVALID_TOKEN, no SESSION_EXPIRED)',
  ),
  fault(
    'near-miss-locks-api-key',
    'KEY-01',
    'five wrong secrets sent with a key id lock the key: its right secret is then refused too (401 INVALID_API_KEY), for the rest of the run',
  ),
] as const;

export type FaultName = (typeof TABLE)[number]['name'];

// Each answer these faults reshape is one the general rules govern too (see alsoBreaks).
const ANSWER_SCHEMA = ['GEN-01', 'GNR-02'];
const ALSO_BREAKS: Partial<Record<string, readonly string[]>> = {
  'token-missing-access-token': ANSWER_SCHEMA,
  'envelope-missing-extra': ANSWER_SCHEMA,
  'user-me-array': ANSWER_SCHEMA,
  'flags-html': ANSWER_SCHEMA,
  'pets-wrapped-in-object': ANSWER_SCHEMA,
  'pet-id-as-string': ANSWER_SCHEMA,
  // ["id"] is not the client's id: accepting it accepts wrong client credentials.
  'token-wrong-type-accepted': ['TOK-03'],
};

export const FAULTS: readonly FaultInfo[] = TABLE.map(({ name, rule, description, areas }) => ({
  name,
  rule,
  description,
  ...(areas ? { areas } : {}),
  ...(ALSO_BREAKS[name] ? { alsoBreaks: ALSO_BREAKS[name] } : {}),
}));

/** The faults that are data: each reshapes a correct answer and is never asked for by a handler. */
export const RESHAPING_FAULTS: readonly string[] = TABLE.filter((f) => f.mutate !== undefined).map(
  (f) => f.name,
);

const KNOWN = new Set(FAULTS.map((f) => f.name));

/** Throws one line naming every unknown fault. */
export function assertKnownFaults(names: readonly string[]): void {
  const unknown = names.filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} (see npm run reference-server -- --list-faults)`,
    );
  }
}

/** The faults switched on in a server; asked on hot paths, so a Set. */
export class ActiveFaults {
  #names = new Set<string>();
  /** The pet ids a refused create kept (fault refused-pet-id-reserved). */
  readonly reservedPetIds = new Set<string>();

  constructor(names: readonly string[] = []) {
    this.set(names);
  }

  set(names: readonly string[]): void {
    assertKnownFaults(names);
    this.#names = new Set(names);
    this.reservedPetIds.clear();
  }

  has(name: FaultName): boolean {
    return this.#names.size > 0 && this.#names.has(name);
  }

  list(): string[] {
    return [...this.#names];
  }

  /** The reply with every active reshaping fault applied, in table order (once per answer). */
  reshape(reply: Reply, route: string | undefined): Reply {
    if (this.#names.size === 0) return reply;
    const context: ReshapeContext = { route, original: structuredClone(reply) };
    let shaped = reply;
    for (const row of TABLE)
      if (row.mutate && this.#names.has(row.name)) shaped = row.mutate(shaped, context);
    return shaped;
  }
}
