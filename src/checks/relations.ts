// Relations: rules that no answer breaks on its own, only beside another answer the run already has
// (metamorphic testing: state how two answers must agree, then check every pair the run recorded).
// Judged once over every recorded exchange, like the invariants (invariants.ts folds their verdicts
// into its own), and used by the few checks that send the second form of a question
// (relationBreaches). Each relation names the spec words it rests on and asks nothing the spec leaves
// open; a breach holds both exchanges and a command that repeats both.
//
// Pure and self-contained: invariants.ts imports this module, so nothing here imports it back.

import { isDeepStrictEqual } from 'node:util';
import { isSessionExpired } from '../../common/error-body.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
import { curlOf } from '../client/curl.ts';
import { parseExactJson } from '../client/exact-json.ts';
import { type RecordedExchange, wasCut } from '../client/index.ts';
import { type Area, findRule, levelOfRules, type RuleLevel } from '../rules/catalogue.ts';

export interface SeenExchange {
  checkId: string;
  exchange: RecordedExchange;
}

export interface Bases {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
}

/** Two answers that must agree and do not. */
export interface PairBreach {
  checkId: string;
  first: RecordedExchange;
  second: RecordedExchange;
  problem: string;
}

/** A relation's verdict, shaped as an invariant's (invariants.ts reports both alike). */
export interface RelationVerdict {
  id: string;
  title: string;
  rules: string[];
  area: Area;
  level: RuleLevel;
  status: 'passed' | 'failed' | 'skipped';
  judged: number;
  breaches: { checkId: string; exchange: RecordedExchange; problem: string }[];
  reason?: string;
}

/** The error timestamp may stand this far from the answer's Date header (or the client's clock). */
export const TIMESTAMP_TOLERANCE_S = 30;
/** Without a Date header the client's clock is the reference: a remote host's clock may drift more. */
export const CLIENT_CLOCK_TOLERANCE_S = 300;

const MAX_BREACHES = 3;

/** One exchange where it went: service, route relative to its base, credential, parsed body. */
export interface Placed {
  checkId: string;
  exchange: RecordedExchange;
  /** Its place in the run's record (the order a check awaited its requests). */
  order: number;
  service: 'main' | 'petstore';
  /** '/v1/customers', '/pets/7', with a trailing slash if the request had one. */
  route: string;
  /** Query parameters, percent-decoded, in the order sent. */
  query: [string, string][];
  credential: 'none' | 'apiKey' | 'bearer' | 'other';
  json: unknown;
  /** Other checks the same exchange was attached to (shared work), judged under `checkId`. */
  alsoIn?: string[];
}

// In a loop (trimTrailingSlashes): /\/+$/ is quadratic on a long run of slashes.
const trim = (path: string) => (path.length > 1 ? trimTrailingSlashes(path) || '/' : path);

function credentialOf(e: RecordedExchange): Placed['credential'] {
  const names = Object.keys(e.requestHeaders).map((n) => n.toLowerCase());
  const key = names.includes('x-api-key-id') || names.includes('x-api-key-secret');
  // The recorded Authorization value is redacted whole; the replay keeps its scheme word.
  const replayed = e.replay?.headers.find(([n]) => n === 'authorization')?.[1];
  const auth =
    replayed !== undefined
      ? replayed.map((part) => (typeof part === 'string' ? part : `$${part.variable}`)).join('')
      : Object.entries(e.requestHeaders).find(([n]) => n.toLowerCase() === 'authorization')?.[1];
  if (key && auth !== undefined) return 'other';
  if (key) return 'apiKey';
  if (auth === undefined) return 'none';
  return /^Bearer \S/.test(auth) ? 'bearer' : 'other';
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '' || wasCut(text)) {
    return undefined;
  }
  // Exactly: two customers whose ids differ beyond 2^53 are two customers (int64 is not a double).
  try {
    return parseExactJson(text);
  } catch {
    return undefined;
  }
}

/** Places each exchange under its service; those of neither service (raw bytes, elsewhere) drop out. */
export function place(seen: readonly SeenExchange[], bases: Bases): Placed[] {
  let main: URL;
  let pets: URL;
  try {
    main = new URL(bases.apiBaseUrl);
    pets = new URL(bases.petstoreBaseUrl);
  } catch {
    return [];
  }
  const services = [
    { service: 'petstore' as const, base: pets },
    { service: 'main' as const, base: main },
  ].sort((a, b) => trim(b.base.pathname).length - trim(a.base.pathname).length);
  const placed: Placed[] = [];
  // Shared work attached to several checks is one exchange, judged under the first; within one
  // check every exchange counts (two equal answers there are two answers).
  const owner = new Map<string, string>();
  const firstPlaced = new Map<string, Placed>();
  seen.forEach(({ checkId, exchange }, order) => {
    const e = exchange;
    const key = `${e.method} ${e.url} ${e.startedAt} ${e.durationMs} ${e.status ?? e.error ?? ''} ${e.responseBody?.length ?? 0}`;
    const first = owner.get(key);
    if (first !== undefined && first !== checkId) {
      // A relation that compares a check's own answers with the shared ones it used still sees them.
      const p = firstPlaced.get(key);
      if (p && !p.alsoIn?.includes(checkId)) p.alsoIn = [...(p.alsoIn ?? []), checkId];
      return;
    }
    owner.set(key, checkId);
    let url: URL;
    try {
      url = new URL(exchange.url);
    } catch {
      return;
    }
    for (const { service, base } of services) {
      const at = trim(base.pathname);
      if (url.origin !== base.origin || !url.pathname.startsWith(`${at}/`)) continue;
      let route = url.pathname.slice(at.length);
      try {
        route = decodeURIComponent(route);
      } catch {}
      const p: Placed = {
        checkId,
        exchange,
        order,
        service,
        route,
        query: [...url.searchParams],
        credential: credentialOf(exchange),
        json: parseJson(exchange.responseBody),
      };
      placed.push(p);
      if (!firstPlaced.has(key)) firstPlaced.set(key, p);
      return;
    }
  });
  return placed;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const statusOf = (p: Placed) => p.exchange.status ?? 0;
const is2xx = (p: Placed) => statusOf(p) >= 200 && statusOf(p) <= 299;
/** Answers that say something about the question: not a rate limit, a disabled feature or a 5xx. */
const answered = (p: Placed) => statusOf(p) >= 200 && statusOf(p) < 500 && statusOf(p) !== 429;

interface Page {
  numbers: Record<'current_page' | 'total_pages', number> & Record<string, number>;
  data: unknown[];
}

function pageOf(p: Placed): Page | undefined {
  if (p.service !== 'main' || !is2xx(p) || !isObject(p.json)) return undefined;
  const { pagination, data } = p.json;
  if (!isObject(pagination) || !Array.isArray(data)) return undefined;
  const fields = [
    'total_items',
    'showing_items',
    'total_pages',
    'current_page',
    'previous_page',
    'next_page',
  ];
  if (!fields.every((f) => Number.isInteger(pagination[f]))) return undefined;
  return { numbers: pagination as Page['numbers'], data };
}

const where = (e: RecordedExchange) => {
  try {
    const url = new URL(e.url);
    return `${e.method} ${url.pathname}${url.search} -> ${e.status ?? e.error ?? 'no answer'}`;
  } catch {
    return `${e.method} ${e.url} -> ${e.status ?? e.error ?? 'no answer'}`;
  }
};

/** The command that asks both questions again, one after the other. */
export function bothCommands(first: RecordedExchange, second: RecordedExchange): string {
  return `${curlOf(first)}; ${curlOf(second)}`;
}

interface Relation {
  id: string;
  title: string;
  rules: string[];
  /** The spec's words the relation rests on. */
  words: string;
  /** Pairs judged, and the pairs that disagree. */
  judge(placed: readonly Placed[]): { judged: number; breaches: PairBreach[] };
}

/**
 * The exchanges of each check, in the run's order. A check that sent requests of its own compares
 * them with the shared answers it used too (alsoIn): a question asked once for several checks
 * (the plain form, the read before a refusal) is each one's.
 */
const byCheck = (placed: readonly Placed[]) => {
  const groups = new Map<string, Placed[]>();
  for (const p of placed) groups.set(p.checkId, [...(groups.get(p.checkId) ?? []), p]);
  for (const p of placed) {
    for (const id of p.alsoIn ?? []) groups.get(id)?.push(p);
  }
  return [...groups.values()].map((group) => group.sort((a, b) => a.order - b.order));
};

/** The same question in another form: route without trailing slash, decoded query sorted. */
const formKey = (p: Placed, known: readonly string[]) =>
  [
    p.exchange.method.toUpperCase(),
    p.service,
    trim(p.route),
    p.credential,
    JSON.stringify(
      p.query
        .filter(([n]) => known.includes(n))
        .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1)),
    ),
  ].join(' ');

/** The query parameters the spec shows, per service. */
const SHOWN_PARAMS = ['page', 'limit'];

/** Pairs of one check that ask the same question in different forms. */
function formPairs(placed: readonly Placed[]): [Placed, Placed][] {
  const pairs: [Placed, Placed][] = [];
  for (const group of byCheck(placed)) {
    const forms = new Map<string, Placed[]>();
    for (const p of group.filter((p) => p.exchange.method.toUpperCase() === 'GET' && answered(p))) {
      const key = formKey(p, SHOWN_PARAMS);
      forms.set(key, [...(forms.get(key) ?? []), p]);
    }
    for (const same of forms.values()) {
      const [plain, ...others] = same;
      if (!plain) continue;
      for (const other of others) {
        // Two sends of the very same URL compare nothing about forms.
        if (other.exchange.url !== plain.exchange.url) pairs.push([plain, other]);
      }
    }
  }
  return pairs;
}

const RELATIONS: readonly Relation[] = [
  {
    id: 'REL-PAGE-SIZE-EACH-CREDENTIAL',
    title: 'GET /v1/customers pages have one size whichever credential asks',
    rules: ['PAG-12'],
    words:
      'Limits: "default page size of paginated routes: 50 items (may differ per route)": a size per route, not per caller',
    judge(placed) {
      // The first full page (not the last) each credential read, with the default size (no other parameter).
      const firsts = new Map<Placed['credential'], { p: Placed; size: number }>();
      for (const p of placed) {
        if (p.credential !== 'apiKey' && p.credential !== 'bearer') continue;
        if (trim(p.route) !== '/v1/customers' || p.exchange.method.toUpperCase() !== 'GET') continue;
        if (p.query.some(([n]) => n !== 'page')) continue;
        const page = pageOf(p);
        if (!page || page.numbers.current_page >= page.numbers.total_pages || page.data.length === 0)
          continue;
        if (!firsts.has(p.credential)) firsts.set(p.credential, { p, size: page.data.length });
      }
      const key = firsts.get('apiKey');
      const token = firsts.get('bearer');
      if (!key || !token) return { judged: 0, breaches: [] };
      return {
        judged: 1,
        breaches:
          key.size === token.size
            ? []
            : [
                {
                  checkId: token.p.checkId,
                  first: key.p.exchange,
                  second: token.p.exchange,
                  problem: `a page before the last holds ${key.size} items for the API key, ${token.size} for the bearer token`,
                },
              ],
      };
    },
  },
  {
    id: 'REL-REFUSAL-EACH-CREDENTIAL',
    title: 'a page number GET /v1/customers refuses through one credential is refused through the other',
    rules: ['PAG-13'],
    words:
      'Limits: "page parameter: integer page number", the same parameter of the same route whoever asks: whether page=0 or page=abc is a page number is no caller\'s business',
    judge(placed) {
      // Per exact page value that is no positive integer: the first answer of each credential.
      const answers = new Map<string, Map<Placed['credential'], Placed>>();
      for (const p of placed) {
        if (p.credential !== 'apiKey' && p.credential !== 'bearer') continue;
        if (trim(p.route) !== '/v1/customers' || p.exchange.method.toUpperCase() !== 'GET') continue;
        // A scheme the route does not take, a rate limit or a disabled feature says nothing of the page.
        if (!answered(p) || statusOf(p) === 401 || statusOf(p) === 403) continue;
        if (p.query.length !== 1 || p.query[0]?.[0] !== 'page') continue;
        const value = p.query[0][1];
        if (/^[1-9]\d*$/.test(value)) continue;
        const byCredential = answers.get(value) ?? new Map<Placed['credential'], Placed>();
        if (!byCredential.has(p.credential)) byCredential.set(p.credential, p);
        answers.set(value, byCredential);
      }
      const breaches: PairBreach[] = [];
      let judged = 0;
      for (const [value, byCredential] of answers) {
        const key = byCredential.get('apiKey');
        const token = byCredential.get('bearer');
        if (!key || !token) continue;
        judged++;
        if (is2xx(key) !== is2xx(token)) {
          breaches.push({
            checkId: token.checkId,
            first: key.exchange,
            second: token.exchange,
            problem: `page=${value}: ${where(key.exchange)} with the API key, ${where(token.exchange)} with the bearer token`,
          });
        }
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-ANONYMOUS-EACH-FORM',
    title: 'a request refused for want of credentials is refused in every form of it',
    rules: ['BEA-02'],
    words:
      'Authentication: "Each route states which it accepts" (GET /v1/customers: "API key or bearer token"); a trailing slash, an unknown parameter or a percent-encoded value does not make the route anonymous',
    judge(placed) {
      const pairs = formPairs(placed).filter(([a]) => a.credential === 'none' && a.service === 'main');
      const breaches: PairBreach[] = [];
      let judged = 0;
      for (const [a, b] of pairs) {
        const refused = (p: Placed) => statusOf(p) === 401 || statusOf(p) === 403;
        if (!refused(a) && !refused(b)) continue;
        judged++;
        const [no, yes] = refused(a) ? [a, b] : [b, a];
        if (is2xx(yes)) {
          breaches.push({
            checkId: a.checkId,
            first: no.exchange,
            second: yes.exchange,
            problem: `without credentials, ${where(no.exchange)} but ${where(yes.exchange)}`,
          });
        }
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-SAME-PAGE-EACH-FORM',
    title: 'a page asked in another form (percent-encoded, reordered, an unknown parameter) is the same page',
    rules: ['PAG-06'],
    words:
      'Paged collection envelope: "current_page: the page returned"; Endpoints: "query: page (integer, optional)" (RFC 3986 §6.2.2: a percent-encoded digit is that digit)',
    judge(placed) {
      const breaches: PairBreach[] = [];
      let judged = 0;
      for (const [a, b] of formPairs(placed)) {
        const pa = pageOf(a);
        const pb = pageOf(b);
        // Tolerated either way (a trailing slash or an unknown parameter may be refused): only two pages compare.
        if (!pa || !pb) continue;
        judged++;
        // Deep equality: the order of an object's keys says nothing (RFC 8259), ids are exact.
        const numbers = isDeepStrictEqual(pa.numbers, pb.numbers);
        const items = isDeepStrictEqual(pa.data, pb.data);
        if (!numbers || !items) {
          breaches.push({
            checkId: a.checkId,
            first: a.exchange,
            second: b.exchange,
            problem: `${where(a.exchange)} and ${where(b.exchange)} ask the same page but answer ${numbers ? 'other items' : `pagination ${JSON.stringify(pa.numbers)} and ${JSON.stringify(pb.numbers)}`}`,
          });
        }
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-REFUSED-WRITE-LEAVES-NOTHING',
    title: 'a pet refused by POST /pets is not there afterwards (read back and listed)',
    rules: ['GNR-03'],
    words:
      'Demo pet interface: POST /pets takes "JSON Pet (id and name required)" (name: string); a refusal (4xx) of a pet is no creation of it (RFC 9110 §15.5: the client erred)',
    judge(placed) {
      const breaches: PairBreach[] = [];
      let judged = 0;
      for (const group of byCheck(placed.filter((p) => p.service === 'petstore'))) {
        // Per pet id, in the check's order: what a read last showed, and the refusal since.
        const state = new Map<number, { absent: boolean; refusal?: Placed }>();
        const idOfRoute = (p: Placed) => {
          const m = /^\/pets\/(\d{1,15})\/?$/.exec(p.route);
          return m ? Number(m[1]) : undefined;
        };
        for (const p of [...group].sort((x, y) => x.order - y.order)) {
          const method = p.exchange.method.toUpperCase();
          if (!answered(p)) continue;
          if (method === 'GET') {
            const id = idOfRoute(p);
            if (id !== undefined) {
              const s = state.get(id);
              if (s?.refusal && s.absent) {
                judged++;
                if (is2xx(p)) {
                  breaches.push({
                    checkId: p.checkId,
                    first: s.refusal.exchange,
                    second: p.exchange,
                    problem: `pet ${id} was absent and its creation refused (${where(s.refusal.exchange)}), yet ${where(p.exchange)}`,
                  });
                }
              }
              state.set(id, { absent: !is2xx(p) && statusOf(p) !== 400 });
            } else if (trim(p.route) === '/pets' && is2xx(p) && Array.isArray(p.json)) {
              const listed = new Set(p.json.map((pet) => (isObject(pet) ? pet.id : undefined)));
              for (const [id, s] of state) {
                if (!s.refusal || !s.absent) continue;
                judged++;
                if (listed.has(id)) {
                  breaches.push({
                    checkId: p.checkId,
                    first: s.refusal.exchange,
                    second: p.exchange,
                    problem: `pet ${id} was absent and its creation refused (${where(s.refusal.exchange)}), yet GET /pets lists it`,
                  });
                }
              }
            }
          } else if (method === 'POST' && trim(p.route) === '/pets') {
            let sent: unknown;
            try {
              sent = JSON.parse(p.exchange.requestBody ?? '');
            } catch {}
            const id = isObject(sent) && Number.isSafeInteger(sent.id) ? (sent.id as number) : undefined;
            if (id === undefined) continue;
            const s = state.get(id);
            if (is2xx(p)) state.set(id, { absent: false });
            else if (s?.absent && statusOf(p) >= 400) state.set(id, { absent: true, refusal: p });
          }
        }
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-NEXT-LINK-LEADS-ON',
    title: 'the page the x-next link of GET /pets leads to, followed once, is not the page that gave it',
    rules: ['PET-13'],
    words:
      'Demo pet interface: "200: JSON array of Pet (a paged array)"; the demo\'s x-next: "A link to the next page of responses"',
    judge(placed) {
      const breaches: PairBreach[] = [];
      let judged = 0;
      const idsOf = (p: Placed) =>
        Array.isArray(p.json) ? p.json.map((pet) => (isObject(pet) ? pet.id : undefined)) : undefined;
      for (const group of byCheck(placed.filter((p) => p.service === 'petstore'))) {
        for (const first of group) {
          const link = Object.entries(first.exchange.responseHeaders ?? {}).find(
            ([n]) => n.toLowerCase() === 'x-next',
          )?.[1];
          const ids = idsOf(first);
          if (!link || !is2xx(first) || !ids?.length || trim(first.route) !== '/pets') continue;
          let target: string;
          try {
            target = new URL(link, first.exchange.url).href;
          } catch {
            continue;
          }
          const next = group.find((p) => p.order > first.order && p.exchange.url === target && is2xx(p));
          const nextIds = next && idsOf(next);
          if (!next || !nextIds) continue;
          judged++;
          // Only the very same page again is wrong: pets created meanwhile may shift an offset by some.
          // Compared as sent (ids may be int64 beyond a double).
          if (next.exchange.responseBody === first.exchange.responseBody) {
            breaches.push({
              checkId: first.checkId,
              first: first.exchange,
              second: next.exchange,
              problem: `the x-next link of ${where(first.exchange)} leads to the same pets again (${where(next.exchange)})`,
            });
          }
        }
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-ERROR-TIMESTAMP-CLOCK',
    title: `an error's timestamp is the moment of its answer: within ${TIMESTAMP_TOLERANCE_S} s of the Date header (${CLIENT_CLOCK_TOLERANCE_S} s of the client's clock without one)`,
    rules: ['ERR-04'],
    words:
      'Error body: "timestamp: string, ISO 8601 date-time: moment the error occurred"; RFC 9110 §6.6.1: Date is the moment the message was generated',
    judge(placed) {
      const breaches: PairBreach[] = [];
      let judged = 0;
      for (const p of placed) {
        if (p.service !== 'main' || statusOf(p) < 400 || !isObject(p.json)) continue;
        const stamp = p.json.timestamp;
        // Only a moment with its zone (Z or an offset) is a moment; a local time names none.
        if (typeof stamp !== 'string' || !/(?:Z|[+-]\d{2}(?::?\d{2})?)$/.test(stamp)) continue;
        const at = Date.parse(stamp);
        if (Number.isNaN(at)) continue;
        const dateHeader = Object.entries(p.exchange.responseHeaders ?? {}).find(
          ([n]) => n.toLowerCase() === 'date',
        )?.[1];
        const date = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
        judged++;
        let problem: string | undefined;
        if (!Number.isNaN(date)) {
          // Date has whole seconds: the moment lies in [date, date + 1 s).
          const off = at < date ? (date - at) / 1000 : Math.max(0, (at - date - 1000) / 1000);
          if (off > TIMESTAMP_TOLERANCE_S) {
            problem = `timestamp ${stamp} is ${Math.round(off)} s from the answer's Date ${dateHeader} (tolerance ${TIMESTAMP_TOLERANCE_S} s)`;
          }
        } else {
          const sent = Date.parse(p.exchange.startedAt);
          const off =
            at < sent ? (sent - at) / 1000 : Math.max(0, (at - sent - p.exchange.durationMs) / 1000);
          if (off > CLIENT_CLOCK_TOLERANCE_S) {
            problem = `timestamp ${stamp} is ${Math.round(off)} s from the client's clock (no Date header; tolerance ${CLIENT_CLOCK_TOLERANCE_S} s)`;
          }
        }
        if (problem) breaches.push({ checkId: p.checkId, first: p.exchange, second: p.exchange, problem });
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-NEXT-PAGE-FOLLOWED',
    title:
      'the page next_page names, asked once through the same credential, is that page and holds other customers',
    rules: ['PAG-08', 'PAG-04'],
    words:
      'Paged collection envelope: "next_page: the next page; equals the last page when the current page is the last", "current_page: the page returned", "data: the items of the requested page"; Limits: "page parameter: integer page number". next_page is a number, asked as page= of the same route at the configured base: it leads nowhere else. Whether the customers a bearer token sees are the API key\'s is not shown, so only the same credential compares',
    judge(placed) {
      const breaches: PairBreach[] = [];
      let judged = 0;
      const customers = (p: Placed) =>
        p.service === 'main' &&
        trim(p.route) === '/v1/customers' &&
        p.exchange.method.toUpperCase() === 'GET' &&
        (p.credential === 'apiKey' || p.credential === 'bearer') &&
        p.query.every(([n]) => n === 'page');
      for (const group of byCheck(placed.filter(customers))) {
        for (const first of group) {
          const page = pageOf(first);
          if (!page || page.data.length === 0) continue;
          const next = page.numbers.next_page;
          // The last page names itself: nothing further to follow.
          if (next === page.numbers.current_page) continue;
          const followed = group.find(
            (p) =>
              p !== first &&
              p.credential === first.credential &&
              answered(p) &&
              p.query.length === 1 &&
              p.query[0]?.[1] === String(next),
          );
          if (!followed) continue;
          judged++;
          const after = pageOf(followed);
          const problem = !after
            ? `page ${page.numbers.current_page} names next_page ${next}, yet ${where(followed.exchange)}`
            : after.numbers.current_page !== next
              ? `page ${page.numbers.current_page} names next_page ${next}, which answers current_page ${after.numbers.current_page}`
              : isDeepStrictEqual(after.data, page.data)
                ? `page ${page.numbers.current_page} names next_page ${next}, which holds the very same customers again`
                : undefined;
          if (problem) {
            breaches.push({
              checkId: first.checkId,
              first: first.exchange,
              second: followed.exchange,
              problem: `${problem} (${first.credential === 'bearer' ? 'bearer token' : 'API key'})`,
            });
          }
        }
      }
      return { judged, breaches };
    },
  },
  {
    id: 'REL-ACCEPTED-AFTER-REFUSALS',
    title:
      "an area's acceptance questions, asked again after its refusals and near misses, get the answers they got before",
    rules: ['BEA-01', 'KEY-01'],
    words:
      'Authentication: "Each route states which it accepts"; Bearer token 4: "When a session has expired, an error with code SESSION_EXPIRED is returned. The client then obtains a new token and repeats the request once": a refused request is no reason to answer a credential otherwise, and a token ends only as an expired session (renewed and repeated once, then judged). A 429, a 5xx or a disabled feature says nothing here',
    judge(placed) {
      const breaches: PairBreach[] = [];
      let judged = 0;
      // Checks named *-AFTER-REFUSALS ask again what the area asked before its refusals (the shared
      // answers attached to them): within each, the first and the last answer of one question agree.
      const afterIds = new Set(
        placed
          .flatMap((p) => [p.checkId, ...(p.alsoIn ?? [])])
          .filter((id) => id.endsWith('-AFTER-REFUSALS')),
      );
      const at = (p: Placed) => Date.parse(p.exchange.startedAt) || 0;
      for (const id of afterIds) {
        const asked = new Map<string, Placed[]>();
        for (const p of placed) {
          if (p.checkId !== id && !p.alsoIn?.includes(id)) continue;
          if (p.credential !== 'apiKey' && p.credential !== 'bearer') continue;
          if (!answered(p)) continue;
          // An expired session is the renewal's first step (before or after): the repeat answers.
          if (isSessionExpired(p.json)) continue;
          const key = `${formKey(p, SHOWN_PARAMS)} ${p.route}`;
          asked.set(key, [...(asked.get(key) ?? []), p]);
        }
        for (const answers of asked.values()) {
          if (answers.length < 2) continue;
          const sorted = [...answers].sort((a, b) => at(a) - at(b) || a.order - b.order);
          const before = sorted[0] as Placed;
          const after = sorted.at(-1) as Placed;
          judged++;
          const kind = (p: Placed) => (is2xx(p) ? (pageOf(p) ? 'a page' : 'accepted') : 'refused');
          if (kind(before) !== kind(after)) {
            breaches.push({
              checkId: id,
              first: before.exchange,
              second: after.exchange,
              problem: `${before.credential === 'bearer' ? 'the same bearer token' : 'the API key'}: ${where(before.exchange)} before the refusals, ${where(after.exchange)} after them`,
            });
          }
        }
      }
      return { judged, breaches };
    },
  },
];

/** The relations, for --list-rules and the docs. */
export function relationChecks(): { id: string; title: string; rules: string[]; words: string }[] {
  return RELATIONS.map(({ id, title, rules, words }) => ({ id, title, rules, words }));
}

/** The pairs that break the named relations among some exchanges (a check's own, after it sent them). */
export function relationBreaches(
  seen: readonly SeenExchange[],
  bases: Bases,
  ids: readonly string[],
): { id: string; breaches: PairBreach[]; judged: number }[] {
  const placed = place(seen, bases);
  return RELATIONS.filter((r) => ids.includes(r.id)).map((r) => ({ id: r.id, ...r.judge(placed) }));
}

/** One verdict per relation over every exchange of the run, with both exchanges of each breach. */
export function judgeRelations(seen: readonly SeenExchange[], bases: Bases): RelationVerdict[] {
  const placed = place(seen, bases);
  if (placed.length === 0) return [];
  return RELATIONS.map((r) => {
    const { judged, breaches } = r.judge(placed);
    const rule = findRule(r.rules[0] ?? '');
    const base = {
      id: r.id,
      title: r.title,
      rules: r.rules,
      area: (rule?.area ?? 'errors') as Area,
      level: levelOfRules(r.rules),
      judged,
      // Both exchanges of each breach, the pair's command in the problem (one exchange when a
      // relation sets an answer beside its own headers).
      breaches: breaches.slice(0, MAX_BREACHES).flatMap((b) => {
        const problem = `${b.problem} (relation: ${r.words}); to repeat both: ${b.first === b.second ? curlOf(b.first) : bothCommands(b.first, b.second)}`;
        return (b.first === b.second ? [b.first] : [b.first, b.second]).map((exchange) => ({
          checkId: b.checkId,
          exchange,
          problem,
        }));
      }),
    };
    if (judged === 0) {
      return {
        ...base,
        status: 'skipped' as const,
        reason: 'inconclusive: no pair of answers to compare in this run',
      };
    }
    const [first] = breaches;
    if (!first) return { ...base, status: 'passed' as const };
    const more = breaches.length > 1 ? ` (and ${breaches.length - 1} more of ${judged} pairs)` : '';
    return {
      ...base,
      status: 'failed' as const,
      reason: `${first.problem}, sent by ${first.checkId}${more}. Relation: ${r.words}. To repeat both: ${first.first === first.second ? curlOf(first.first) : bothCommands(first.first, first.second)}`,
    };
  });
}
