// Faults that only reshape an answer, written as data: a function from the correct reply to the
// faulty one, applied once after routing (src/reference/server.ts). The handlers stay correct and
// never ask for these faults; behaviour faults (auth, flag cache, limiter, paging arithmetic)
// remain branches where they change what the server does.
import { stringifyExactIntegers } from './int64-json.ts';
import { JSON_TYPE, type Reply } from './reply.ts';

export interface ReshapeContext {
  /** 'GET /api/v1/customers': the matched route, undefined when nothing matched. */
  readonly route: string | undefined;
  /** The correct reply, before any fault reshaped it (read-only). */
  readonly original: Reply;
}

/** Returns the reshaped reply (or mutates and returns the one it got). */
export type Mutate = (reply: Reply, context: ReshapeContext) => Reply;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const CUSTOMERS = 'GET /api/v1/customers';

/** A reshape of the customers page's JSON envelope (a 200 with a pagination object). */
function customersEnvelope(change: (envelope: Json, original: Json) => void): Mutate {
  return (reply, { route, original }) => {
    if (route !== CUSTOMERS || reply.status !== 200 || !isObject(reply.json) || !isObject(original.json)) {
      return reply;
    }
    change(reply.json, original.json);
    return reply;
  };
}

const paginationOf = (envelope: Json): Json => (isObject(envelope.pagination) ? envelope.pagination : {});

// Keeps the field's current type, so a number written after 'pagination-numbers-as-strings' is
// still a string: the faults combine as they did when they were branches.
function put(pagination: Json, field: string, value: number): void {
  pagination[field] = typeof pagination[field] === 'string' ? String(value) : value;
}

/** The correct (original) value of a pagination field. */
const correct = (original: Json, field: string): number => Number(paginationOf(original)[field]);

/** One more (or less) than the correct value. */
const offBy = (field: string, delta: number): Mutate =>
  customersEnvelope((envelope, original) =>
    put(paginationOf(envelope), field, correct(original, field) + delta),
  );

/** A reshape of an error body (every answer of 400 or more with a JSON body is one). */
function errorBody(change: (body: Json, original: Json) => void): Mutate {
  return (reply, { original }) => {
    if (reply.status < 400 || !isObject(reply.json) || !isObject(original.json)) return reply;
    change(reply.json, original.json);
    return reply;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

// The non-ISO form a fault writes: day first, no seconds, no zone.
function localStyle(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The same JSON text under text/plain (still JSON to the reshapes after it). */
const asPlainText = (reply: Reply): Reply => ({ ...reply, contentType: 'text/plain; charset=utf-8' });

/** The reply's JSON written as these bytes, under its JSON content type. */
const asBytes = (reply: Reply, body: Buffer): Reply => {
  const { json: _json, ...rest } = reply;
  return { ...rest, text: { contentType: reply.contentType ?? JSON_TYPE, body } };
};

/** A reshape of a 2xx answer of one route. */
function onRoute(routeKey: string, change: (reply: Reply, original: Reply) => Reply | undefined): Mutate {
  return (reply, { route, original }) =>
    route !== routeKey || reply.status < 200 || reply.status > 299
      ? reply
      : (change(reply, original) ?? reply);
}

/** A reshape of the error body of one error code (in any route). */
function onErrorCode(code: string, change: (reply: Reply, body: Json) => void): Mutate {
  return (reply, { original }) => {
    if (!isObject(reply.json) || !isObject(original.json) || original.json.code !== code) return reply;
    change(reply, reply.json);
    return reply;
  };
}

/** Another status, told in the body too unless a fault already changed status_code. */
function restatus(reply: Reply, body: Json, status: number): void {
  if (body.status_code === reply.status) body.status_code = status;
  reply.status = status;
}

const SHOW_PET = 'GET /petstore/v1/pets/{petId}';
const LIST_PETS = 'GET /petstore/v1/pets';

/** The pets of a list or single-pet answer, however a fault wrapped the list. */
function petsIn(json: unknown): Json[] {
  if (Array.isArray(json)) return json.filter(isObject);
  if (isObject(json) && Array.isArray(json.pets)) return json.pets.filter(isObject);
  return isObject(json) ? [json] : [];
}

/** A change to each pet shown by the two read routes, given the pet as it was before any fault. */
function eachShownPet(change: (pet: Json, original: Json) => void): Mutate {
  return (reply, context) => {
    if (context.route !== LIST_PETS && context.route !== SHOW_PET) return reply;
    if (reply.status !== 200) return reply;
    const shown = petsIn(reply.json);
    const originals = petsIn(context.original.json);
    shown.forEach((pet, i) => {
      const original = originals[i];
      if (original) change(pet, original);
    });
    return reply;
  };
}

/** The flags of either flags answer: the spec's {data: [...]} or the other-choices map. */
function flagsIn(json: unknown): { name: string; enabled: boolean }[] {
  if (!isObject(json)) return [];
  if (Array.isArray(json.data)) {
    return json.data.filter(isObject).map((f) => ({ name: String(f.name), enabled: f.enabled === true }));
  }
  const features = isObject(json.features) ? json.features : {};
  return Object.entries(features).map(([name, f]) => ({ name, enabled: isObject(f) && f.enabled === true }));
}

/** A reshape of the customers route's 422 beyond the last page. */
function beyondLastPage(change: (reply: Reply, body: Json) => void): Mutate {
  return (reply, { route, original }) => {
    if (route !== CUSTOMERS || original.status !== 422 || !isObject(reply.json)) return reply;
    change(reply, reply.json);
    return reply;
  };
}

export const RESHAPES = {
  /** The token under `token`, first as before. */
  tokenMissingAccessToken: onRoute('POST /api/v1/auth/token', (reply) => {
    if (!isObject(reply.json) || !('access_token' in reply.json)) return reply;
    const { access_token: token, ...rest } = reply.json;
    return { ...reply, json: { token, ...rest } };
  }),
  envelopeMissingExtra: customersEnvelope((envelope) => {
    delete envelope.extra;
  }),
  paginationNumbersAsStrings: customersEnvelope((envelope) => {
    const pagination = paginationOf(envelope);
    for (const [field, value] of Object.entries(pagination)) pagination[field] = String(value);
  }),
  showingItemsOffByOne: offBy('showing_items', 1),
  totalItemsOffByOne: offBy('total_items', 1),
  totalItemsLeftAfterPage: customersEnvelope((envelope, original) => {
    const left =
      correct(original, 'total_items') -
      correct(original, 'current_page') * correct(original, 'showing_items');
    put(paginationOf(envelope), 'total_items', Math.max(0, left));
  }),
  totalPagesOffByOne: offBy('total_pages', 1),
  currentPageZeroBased: offBy('current_page', -1),
  previousPageZeroOnFirst: customersEnvelope((envelope, original) => {
    if (correct(original, 'current_page') === 1) put(paginationOf(envelope), 'previous_page', 0);
  }),
  nextPageBeyondLast: customersEnvelope((envelope, original) => {
    const totalPages = correct(original, 'total_pages');
    if (correct(original, 'current_page') >= totalPages)
      put(paginationOf(envelope), 'next_page', totalPages + 1);
  }),
  pageBeyondLast400: beyondLastPage((reply, body) => restatus(reply, body, 400)),
  pageBeyondMessageWithoutMax: beyondLastPage((_reply, body) => {
    body.message = 'the requested page is out of range';
  }),
  pageBeyondMessagePageBefore: beyondLastPage((_reply, body) => {
    // Right only when the page asked for is the one after the last.
    const asked = /page (\d+)/.exec(String(body.message))?.[1];
    if (asked !== undefined)
      body.message = `page ${asked} is greater than the maximum page ${BigInt(asked) - 1n}`;
  }),
  pageBeyondErrorsFilled: beyondLastPage((_reply, body) => {
    body.errors = [body.message];
  }),
  pageBeyondUnhandled: beyondLastPage((_reply, body) => {
    body.handled = false;
  }),
  customersTextContentType: (reply, { route }) =>
    route !== CUSTOMERS || reply.status !== 200 || reply.json === undefined ? reply : asPlainText(reply),
  errorMissingMessage: errorBody((body) => {
    delete body.message;
  }),
  errorMissingHandled: errorBody((body) => {
    delete body.handled;
  }),
  statusCodeMismatch: errorBody((body) => {
    body.status_code = 400;
  }),
  timestampNotIso: errorBody((body, original) => {
    body.timestamp = localStyle(Date.parse(String(original.timestamp)));
  }),
  // Local time (UTC+1) written as if it were UTC: an ISO 8601 timestamp an hour off the moment.
  // Only an ISO timestamp is shifted: combined with timestamp-not-iso, that one's shape stays.
  errorTimestampHourAhead: errorBody((body) => {
    const at = Date.parse(String(body.timestamp));
    if (/^\d{4}-\d\d-\d\dT/.test(String(body.timestamp)) && !Number.isNaN(at)) {
      body.timestamp = new Date(at + 3_600_000).toISOString();
    }
  }),
  errorPathWrong: errorBody((body) => {
    body.path = '/';
  }),
  errorsFieldNotStrings: errorBody((body) => {
    body.errors = 'see message';
  }),
  // Every error of one message (errors empty or absent) gets a list of one that is not its message:
  // its code, which a client reading errors instead of message shows. The 422 beyond the last page
  // is left to page-beyond-errors-filled (its [] is PAG-11's own words). The code is the correct
  // one and errors another fault reshaped is kept: the faults combine.
  errorsFilledOneMessage: (reply, context) =>
    context.route === CUSTOMERS && context.original.status === 422
      ? reply
      : errorBody((body, original) => {
          const listed = body.errors;
          if (listed === undefined || (Array.isArray(listed) && listed.length === 0))
            body.errors = [String(original.code)];
        })(reply, context),
  userMeArray: onRoute('GET /api/v1/user/me', (reply) => ({ ...reply, json: [reply.json] })),
  flagsHtml: onRoute('GET /api/v1/feature-flags', (reply, original) => {
    const items = flagsIn(original.json)
      .map((f) => `<li>${f.name}: ${f.enabled ? 'on' : 'off'}</li>`)
      .join('');
    // A page for people: none of the JSON answer's headers (its cache-control) either.
    return {
      status: reply.status,
      text: { contentType: 'text/html; charset=utf-8', body: `<!doctype html><ul>${items}</ul>` },
    };
  }),
  featureDisabled403: onErrorCode('FEATURE_FLAG_DISABLED', (reply, body) => restatus(reply, body, 403)),
  featureDisabledWrongCode: onErrorCode('FEATURE_FLAG_DISABLED', (_reply, body) => {
    body.code = 'FEATURE_DISABLED';
  }),
  featureDisabledGenericMessage: onErrorCode('FEATURE_FLAG_DISABLED', (_reply, body) => {
    if ('message' in body) body.message = 'Service unavailable';
  }),
  sessionExpiredStatusCodeMismatch: onErrorCode('SESSION_EXPIRED', (_reply, body) => {
    body.status_code = 400;
  }),
  sessionExpiredOtherCode: onErrorCode('SESSION_EXPIRED', (_reply, body) => {
    body.code = 'TOKEN_EXPIRED';
  }),
  petsWrappedInObject: onRoute(LIST_PETS, (reply) => ({ ...reply, json: { pets: reply.json } })),
  petIdAsString: eachShownPet((pet, original) => {
    pet.id = String(original.id);
  }),
  petStatusOutsideEnum: eachShownPet((pet, original) => {
    if (Number(original.id) % 5 === 0) pet.status = 'adopted';
  }),
  createPet200: onRoute('POST /petstore/v1/pets', (reply) =>
    reply.status === 201 ? { ...reply, status: 200 } : reply,
  ),
  // A body may come with the 201 (none is shown), but one declared JSON must be JSON.
  createdPetBodyNotJson: onRoute('POST /petstore/v1/pets', (reply) =>
    reply.status === 201
      ? { status: 201, headers: reply.headers, text: { contentType: 'application/json', body: 'created' } }
      : reply,
  ),
  noDeprecationHeader: onRoute(SHOW_PET, (reply) => {
    if (!reply.headers) return reply;
    const { deprecation: _deprecation, ...headers } = reply.headers;
    return { ...reply, headers };
  }),
  errorTextPlain: (reply) => (reply.status < 400 || reply.json === undefined ? reply : asPlainText(reply)),
  // The JSON text of an error as other bytes under the same JSON content type (routed answers only:
  // the bytes of an unparseable request's answer are written elsewhere).
  petErrorBom: (reply, { route }) =>
    route?.includes(' /petstore/') && reply.status >= 400 && reply.json !== undefined
      ? asBytes(reply, Buffer.from(`\uFEFF${stringifyExactIntegers(reply.json)}`, 'utf8'))
      : reply,
  // Latin-1 under charset=utf-8: each character up to U+00FF one byte (é is the byte E9, no UTF-8).
  errorLatin1: (reply, { route }) =>
    route !== undefined && reply.status >= 400 && reply.json !== undefined
      ? asBytes(
          reply,
          Buffer.from(
            stringifyExactIntegers(reply.json).replace(/[^\x20-\xff]/gu, (c) => (c < ' ' ? c : '?')),
            'latin1',
          ),
        )
      : reply,
  // status_code twice: 500 first, the right one last (JSON.parse keeps the last; other readers the first).
  errorDuplicateStatusCode: (reply, { route }) =>
    route?.includes(' /api/') && reply.status >= 400 && isObject(reply.json) && 'status_code' in reply.json
      ? asBytes(
          reply,
          Buffer.from(`{"status_code":500,${stringifyExactIntegers(reply.json).slice(1)}`, 'utf8'),
        )
      : reply,
} satisfies Record<string, Mutate>;
