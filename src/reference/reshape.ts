// Faults that only reshape an answer, written as data: a function from the correct reply to the
// faulty one, applied once after routing (src/reference/server.ts). The handlers stay correct and
// never ask for these faults; behaviour faults (auth, flag cache, limiter, paging arithmetic)
// remain branches where they change what the server does.
import type { Reply } from './reply.ts';

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

/** The same JSON text under text/plain. */
const asPlainText = (reply: Reply): Reply => ({
  status: reply.status,
  ...(reply.headers ? { headers: reply.headers } : {}),
  text: { contentType: 'text/plain; charset=utf-8', body: JSON.stringify(reply.json) },
});

export const RESHAPES = {
  envelopeMissingExtra: customersEnvelope((envelope) => {
    delete envelope.extra;
  }),
  paginationNumbersAsStrings: customersEnvelope((envelope) => {
    const pagination = paginationOf(envelope);
    for (const [field, value] of Object.entries(pagination)) pagination[field] = String(value);
  }),
  showingItemsOffByOne: offBy('showing_items', 1),
  totalItemsOffByOne: offBy('total_items', 1),
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
  errorPathWrong: errorBody((body) => {
    body.path = '/';
  }),
  errorsFieldMissing: errorBody((body) => {
    delete body.errors;
  }),
  errorTextPlain: (reply) => (reply.status < 400 || reply.json === undefined ? reply : asPlainText(reply)),
} satisfies Record<string, Mutate>;
