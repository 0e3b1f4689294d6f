// Rules that hold for every answer of a kind, judged once over every recorded exchange of the run,
// whichever check sent it: the error body on every error of the main service, the pagination
// arithmetic on every paged envelope, every 2xx against its operation's schema, and no answer
// carrying a secret (judged before redaction by the recorder, src/client/leaks.ts). Pure: the
// reporter (and the fault matrix) hand it the exchanges and the service bases, it returns one
// verdict per invariant, each with the exchanges that broke it.
//
// Only what the spec shows is asked: the demo pet operations' errors are "not shown" (no error-body
// invariant there); a page number the request did not state exactly is not compared; an answer cut
// at the recorder's limit is not judged.

import { isJsonMediaType } from '../../common/media-type.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
import { reproducible } from '../client/curl.ts';
import { type RecordedExchange, wasCut } from '../client/index.ts';
import { type OperationInfo, operations, validateErrorBody, validateResponse } from '../contract/index.ts';
import { type Area, failsTheRun, findRule, levelOfRules, type RuleLevel } from '../rules/catalogue.ts';
import { jsonBytesProblem, jsonKeysProblem } from './json-bytes.ts';
import { type ParsedBody, parsedBody } from './parsed-body.ts';
import { judgeRelations, relationChecks } from './relations.ts';
import { serverFailureOf } from './server-failure.ts';

export interface SeenExchange {
  /** The check whose evidence holds the exchange. */
  checkId: string;
  exchange: RecordedExchange;
}

export interface Bases {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
}

export interface Breach {
  checkId: string;
  exchange: RecordedExchange;
  problem: string;
}

export interface InvariantVerdict {
  id: string;
  title: string;
  rules: string[];
  area: Area;
  level: RuleLevel;
  status: 'passed' | 'failed' | 'skipped';
  /** Exchanges of its kind that were judged. */
  judged: number;
  /** The first breaches (at most MAX_BREACHES), in the order the run recorded them. */
  breaches: Breach[];
  /** Why it failed (the first breach, and how many in all) or why nothing was judged. */
  reason?: string;
}

const MAX_BREACHES = 3;

// ISO 8601 date-time: a date, T, a time; seconds, fractions and the zone may vary.
export const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

export function isIsoDateTime(value: unknown): boolean {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

const trimSlashes = trimTrailingSlashes;
const decoded = (path: string) => {
  // Nothing to decode without a `%` (a long path of slashes is copied whole by decodeURIComponent).
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** "path: route that caused the error": with or without the base path, never with another route. */
export function namesRoute(path: string, route: string): boolean {
  const bare = trimSlashes(decoded(path.split('?')[0] ?? ''));
  const wanted = trimSlashes(decoded(route));
  return bare === wanted || bare === wanted.slice(1) || (wanted !== '' && bare.endsWith(wanted));
}

/** Where an exchange went: which service, the path relative to its base, the operation if known. */
interface Located {
  service: 'main' | 'petstore';
  /** '/v1/customers', '/pets/7' */
  route: string;
  operation: OperationInfo | undefined;
  query: URLSearchParams;
}

function templateMatches(template: string, route: string): boolean {
  const pattern = template
    .split('/')
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`).test(route);
}

function locator(bases: Bases): ((e: RecordedExchange) => Located | undefined) | undefined {
  let main: URL;
  let pets: URL;
  try {
    main = new URL(bases.apiBaseUrl);
    pets = new URL(bases.petstoreBaseUrl);
  } catch {
    return undefined; // no service bases known (shards merged elsewhere): nothing can be located
  }
  const prefix = (base: URL) => trimSlashes(base.pathname);
  const known = operations();
  return (e) => {
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      return undefined;
    }
    // The longer base first: the pet base may sit under the main one.
    const candidates = [
      { service: 'petstore' as const, base: pets },
      { service: 'main' as const, base: main },
    ].sort((a, b) => prefix(b.base).length - prefix(a.base).length);
    for (const { service, base } of candidates) {
      const at = prefix(base);
      if (url.origin !== base.origin || !(url.pathname === at || url.pathname.startsWith(`${at}/`))) continue;
      const route = url.pathname.slice(at.length) || '/';
      const operation = known.find(
        (op) =>
          op.service === service &&
          op.method.toUpperCase() === e.method.toUpperCase() &&
          templateMatches(op.path, route),
      );
      return { service, route, operation, query: url.searchParams };
    }
    return undefined;
  };
}

type Parsed = ParsedBody;

/** The parsed JSON of an answer (once per answer, parsed-body.ts); not ok when it is not JSON or was cut by the recorder. */
function jsonOf(e: RecordedExchange): Parsed {
  const text = e.responseBody;
  if (text === undefined || wasCut(text)) return { ok: false };
  return parsedBody(e);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const where = (e: RecordedExchange) => {
  let path = e.url;
  try {
    const url = new URL(e.url);
    path = `${url.pathname}${url.search}`;
  } catch {}
  return `${e.method} ${path} -> ${e.status}`;
};

/** One invariant: which exchanges it governs and what it finds wrong in one of them. */
interface Invariant {
  id: string;
  title: string;
  rules: string[];
  /** The problem with one governed exchange, '' when it holds, undefined when it does not govern it. */
  judge(e: RecordedExchange, at: Located | undefined): string | undefined;
}

/**
 * ERR-08 on an error body's errors: "filled when the error has several messages", so a filled list
 * holds two or more; empty or absent is the error of one message, and a list of one that is the
 * message itself only restates it (tolerated: a client reading errors instead shows the message).
 * A list that is no array of strings is ERR-06's to report ('' here). One definition for the
 * invariant and the case check.
 */
export function errorsListProblem(errors: unknown, message: unknown): string {
  if (!Array.isArray(errors) || !errors.every((m) => typeof m === 'string')) return '';
  return errors.length === 1 && errors[0] !== message
    ? `errors is ${JSON.stringify(errors)}: one entry, not several messages, and not the message ${JSON.stringify(message)}`
    : '';
}

/** An answer of 400 or more from the main service (the demo pet operations' errors are not shown). */
function errorBodyOf(
  e: RecordedExchange,
  at: Located | undefined,
): { body: Record<string, unknown> } | { problem: string } | undefined {
  if (at?.service !== 'main' || e.status === undefined || e.status < 400) return undefined;
  const json = jsonOf(e);
  if (!json.ok) return wasCut(e.responseBody ?? '') ? undefined : { problem: 'the body is not JSON' };
  if (!isObject(json.value)) return { problem: 'the body is not a JSON object' };
  return { body: json.value };
}

/** An error-body invariant on its field; a body that is no JSON object is ERR-01's and ERR-07's to report. */
function onErrorBody(
  id: string,
  title: string,
  rule: string,
  judge: (body: Record<string, unknown>, e: RecordedExchange, at: Located) => string,
): Invariant {
  return {
    id,
    title,
    rules: [rule],
    judge(e, at) {
      const of = errorBodyOf(e, at);
      if (of === undefined || !at) return undefined;
      if ('problem' in of) return rule === 'ERR-01' ? of.problem : undefined;
      return judge(of.body, e, at);
    },
  };
}

type PaginationFields = Record<
  'total_items' | 'showing_items' | 'total_pages' | 'current_page' | 'previous_page' | 'next_page',
  unknown
>;

/** A 2xx paged envelope of the main service (an object with a pagination object and a data array). */
function envelopeOf(
  e: RecordedExchange,
  at: Located | undefined,
): { pagination: PaginationFields; data: unknown[]; requested: number | undefined } | undefined {
  if (at?.service !== 'main' || e.status === undefined || e.status < 200 || e.status > 299) return undefined;
  const json = jsonOf(e);
  if (!json.ok || !isObject(json.value)) return undefined;
  const { pagination, data } = json.value;
  if (!isObject(pagination) || !Array.isArray(data)) return undefined;
  // Compared only when the request stated one page exactly (no sign, no leading zero, no repeat).
  const pages = at.query.getAll('page');
  const requested =
    pages.length === 0
      ? 1
      : pages.length === 1 && /^[1-9]\d{0,14}$/.test(pages[0] ?? '')
        ? Number(pages[0])
        : undefined;
  return { pagination: pagination as PaginationFields, data, requested };
}

const FIELDS = [
  'total_items',
  'showing_items',
  'total_pages',
  'current_page',
  'previous_page',
  'next_page',
] as const;

type Numbers = Record<(typeof FIELDS)[number], number>;

const integersOf = (p: PaginationFields): Numbers | undefined =>
  FIELDS.every((f) => Number.isInteger(p[f])) ? (p as Numbers) : undefined;

/** A pagination invariant on an envelope whose six numbers are integers (PAG-02 reports the others). */
function onPage(
  id: string,
  title: string,
  rule: string,
  judge: (n: Numbers, page: { data: unknown[]; requested: number | undefined }) => string | undefined,
): Invariant {
  return {
    id,
    title,
    rules: [rule],
    judge(e, at) {
      const page = envelopeOf(e, at);
      if (!page) return undefined;
      const n = integersOf(page.pagination);
      return n ? judge(n, page) : undefined;
    },
  };
}

const INVARIANTS: readonly Invariant[] = [
  // Error body, on every error of the main service
  {
    id: 'INV-ERROR-JSON',
    title: 'every error of the main service is JSON with a JSON content type',
    rules: ['ERR-07'],
    judge(e, at) {
      if (at?.service !== 'main' || e.status === undefined || e.status < 400) return undefined;
      const type = e.responseHeaders?.['content-type'] ?? '';
      if (!isJsonMediaType(type)) return `content type ${JSON.stringify(type || 'none')}`;
      const json = jsonOf(e);
      return json.ok || wasCut(e.responseBody ?? '') ? '' : 'the body is not JSON';
    },
  },
  onErrorBody('INV-ERROR-MESSAGE', 'every error body has its message', 'ERR-01', (body) =>
    // "always present; explains the error": an empty message explains nothing.
    typeof body.message === 'string' && body.message.trim() !== ''
      ? ''
      : `message is ${JSON.stringify(body.message) ?? 'absent'}`,
  ),
  onErrorBody(
    'INV-ERROR-FIELDS',
    'every error body has the fields of the spec with their types',
    'ERR-02',
    (body) => {
      const v = validateErrorBody(body);
      if (!v.valid) return v.errors.join('; ');
      // "code: internal error code": an empty string names no code.
      return body.code === '' ? 'code is an empty string' : '';
    },
  ),
  onErrorBody(
    'INV-ERROR-STATUS-CODE',
    'status_code equals the HTTP status on every error',
    'ERR-03',
    (body, e) =>
      body.status_code === e.status
        ? ''
        : `status_code is ${JSON.stringify(body.status_code)}, HTTP ${e.status}`,
  ),
  onErrorBody('INV-ERROR-TIMESTAMP', 'timestamp is an ISO 8601 date-time on every error', 'ERR-04', (body) =>
    isIsoDateTime(body.timestamp) ? '' : `timestamp ${JSON.stringify(body.timestamp)} is not ISO 8601`,
  ),
  onErrorBody('INV-ERROR-PATH', 'path names the route on every error', 'ERR-05', (body, _e, at) =>
    typeof body.path === 'string' && namesRoute(body.path, at.route)
      ? ''
      : `path ${JSON.stringify(body.path)} does not name ${at.route}`,
  ),
  onErrorBody(
    'INV-ERROR-ERRORS',
    'errors, where an error body carries it, is an array of strings',
    'ERR-06',
    (body) =>
      body.errors === undefined ||
      (Array.isArray(body.errors) && body.errors.every((m) => typeof m === 'string'))
        ? ''
        : `errors is ${JSON.stringify(body.errors)}, not an array of strings`,
  ),
  onErrorBody(
    'INV-ERROR-ERRORS-SEVERAL',
    'errors, when filled, holds several messages on every error',
    'ERR-08',
    (body) => errorsListProblem(body.errors, body.message),
  ),
  // Paged envelopes, on every page any check read
  {
    id: 'INV-PAGE-INTEGERS',
    title: 'the pagination numbers are integers on every page',
    rules: ['PAG-02'],
    judge(e, at) {
      const page = envelopeOf(e, at);
      if (!page) return undefined;
      const wrong = FIELDS.filter((f) => !Number.isInteger(page.pagination[f]));
      return wrong.length
        ? `not integers: ${wrong.map((f) => `${f} ${JSON.stringify(page.pagination[f])}`).join(', ')}`
        : '';
    },
  },
  onPage('INV-PAGE-SHOWING', 'showing_items equals the items of every page', 'PAG-03', (n, page) =>
    n.showing_items === page.data.length ? '' : `showing_items ${n.showing_items}, ${page.data.length} items`,
  ),
  onPage('INV-PAGE-TOTAL-ITEMS', 'no page shows more items than total_items', 'PAG-04', (n) =>
    n.showing_items <= n.total_items ? '' : `showing_items ${n.showing_items} > total_items ${n.total_items}`,
  ),
  onPage(
    'INV-PAGE-TOTAL-PAGES',
    'total_pages agrees with total_items and the page size on every page',
    'PAG-05',
    (n, page) => {
      if (n.current_page < 1 || n.current_page > Math.max(n.total_pages, 1)) return undefined; // PAG-06's
      // A page before the last is full: its size gives the number of pages.
      if (n.current_page < n.total_pages) {
        if (page.data.length === 0) return `page ${n.current_page} of ${n.total_pages} is empty`;
        const pages = Math.ceil(n.total_items / page.data.length);
        return pages === n.total_pages
          ? ''
          : `total_pages ${n.total_pages}, but ${n.total_items} items in pages of ${page.data.length} make ${pages}`;
      }
      if (n.total_items > 0 && page.data.length === 0) return `the last page (${n.total_pages}) is empty`;
      return '';
    },
  ),
  onPage('INV-PAGE-CURRENT', 'current_page is the page requested on every page', 'PAG-06', (n, page) => {
    if (page.requested === undefined) return undefined;
    return n.current_page === page.requested
      ? ''
      : `current_page ${n.current_page}, page ${page.requested} requested`;
  }),
  onPage(
    'INV-PAGE-PREVIOUS',
    'previous_page is the first page on the first, else the page before',
    'PAG-07',
    (n, page) => {
      const current = page.requested ?? n.current_page;
      const expected = current === 1 ? 1 : current - 1;
      return n.previous_page === expected
        ? ''
        : `previous_page ${n.previous_page} on page ${current}, not ${expected}`;
    },
  ),
  onPage(
    'INV-PAGE-NEXT',
    'next_page is the last page on the last, else the page after',
    'PAG-08',
    (n, page) => {
      const current = page.requested ?? n.current_page;
      const last = Math.max(n.total_pages, 1);
      const expected = current >= last ? last : current + 1;
      return n.next_page === expected
        ? ''
        : `next_page ${n.next_page} on page ${current} of ${last}, not ${expected}`;
    },
  ),
  // Every 2xx against its operation's schema
  {
    id: 'INV-2XX-SCHEMA',
    title: "every 2xx answer with a body is JSON matching its operation's schema",
    rules: ['GEN-01'],
    judge(e, at) {
      if (!at?.operation || e.status === undefined || e.status < 200 || e.status > 299) return undefined;
      if (!e.responseBody || wasCut(e.responseBody)) return undefined;
      const type = e.responseHeaders?.['content-type'] ?? '';
      if (!isJsonMediaType(type)) return `content type ${JSON.stringify(type || 'none')}`;
      const json = jsonOf(e);
      if (!json.ok) return 'the body is not JSON';
      const v = validateResponse(at.operation.operationId, e.status, json.value);
      // A status the document does not list is another rule's to judge.
      if (!v.valid && v.errors.some((m) => m.startsWith(`status ${e.status} is not a documented`)))
        return undefined;
      return v.valid ? '' : v.errors.join('; ');
    },
  },
  // Never a 5xx, on every answer of either service, whichever check sent the request
  {
    id: 'INV-NO-5XX',
    title: 'no request of the run is answered with a 5xx (the 503 FEATURE_FLAG_DISABLED excepted)',
    rules: ['GNR-01'],
    judge(e, at) {
      if (!at || e.status === undefined) return undefined;
      return serverFailureOf(e) ?? '';
    },
  },
  // No answer carries a secret (judged before redaction, src/client/leaks.ts)
  {
    id: 'INV-NO-SECRETS',
    title: 'no answer carries a configured secret or a token it did not ask for',
    rules: ['SEC-01'],
    judge(e) {
      if (e.status === undefined) return undefined;
      return e.leaked?.length ? `the answer carries ${e.leaked.join(', ')}` : '';
    },
  },
  // Every body declared JSON, as the bytes it came as (json-bytes.ts)
  {
    id: 'INV-JSON-BYTES',
    title: 'every body declared JSON is UTF-8 JSON without a byte order mark, as long as its Content-Length',
    rules: ['GEN-02'],
    judge: (e, at) => (at ? jsonBytesProblem(e) : undefined),
  },
  {
    id: 'INV-JSON-KEYS',
    title: 'no object of a body declared JSON holds a key twice with different values',
    rules: ['GEN-03'],
    judge: (e, at) => (at ? jsonKeysProblem(e) : undefined),
  },
];

/** The invariants, for --list-rules and the docs. */
export function invariantChecks(): { id: string; title: string; rules: string[] }[] {
  // The relations (relations.ts) are judged and listed with them.
  return [
    ...INVARIANTS.map(({ id, title, rules }) => ({ id, title, rules })),
    ...relationChecks().map(({ id, title, rules }) => ({ id, title, rules })),
  ];
}

const keyOf = (e: RecordedExchange) => `${e.method} ${e.url} ${e.startedAt} ${e.status ?? e.error ?? ''}`;

/**
 * One pass over every exchange of the run: each invariant's verdict with the exchanges that broke
 * it. An exchange attached to several checks (shared work) is judged once.
 */
/**
 * How long one invariant may take over a run's exchanges. Every reader of the target's text is
 * linear (test/common/linear-time.test.ts), so a run's invariants take milliseconds; should one
 * still be slow, it fails with the reason instead of holding the run and its reports hostage.
 */
export const INVARIANT_BUDGET_MS = 30_000;

export function judgeInvariants(
  seen: readonly SeenExchange[],
  bases: Bases,
  clock: { budgetMs: number; now: () => number } = {
    budgetMs: INVARIANT_BUDGET_MS,
    now: () => performance.now(),
  },
): InvariantVerdict[] {
  const locate = locator(bases);
  if (!locate) return [];
  const unique = new Map<string, SeenExchange>();
  for (const s of seen) if (!unique.has(keyOf(s.exchange))) unique.set(keyOf(s.exchange), s);
  const located = [...unique.values()].map((s) => ({ ...s, at: locate(s.exchange) }));
  return INVARIANTS.map((inv) => {
    let judged = 0;
    let broken = 0;
    const breaches: Breach[] = [];
    const started = clock.now();
    let overBudget = false;
    let anyReproducible = false;
    for (const { checkId, exchange, at } of located) {
      if (clock.now() - started > clock.budgetMs) {
        overBudget = true;
        break;
      }
      const problem = inv.judge(exchange, at);
      if (problem === undefined) continue;
      judged++;
      if (problem === '') continue;
      broken++;
      if (breaches.length < MAX_BREACHES) breaches.push({ checkId, exchange, problem });
      else if (!anyReproducible && reproducible(exchange))
        breaches[MAX_BREACHES - 1] = { checkId, exchange, problem };
      anyReproducible ||= reproducible(exchange);
    }
    // The exchange shown first (and named in the reason) is one whose command runs as printed: a
    // request with a credential the check derived from a secret has none (src/report/reproduce.ts).
    breaches.sort((a, b) => Number(reproducible(b.exchange)) - Number(reproducible(a.exchange)));
    const rule = findRule(inv.rules[0] ?? '');
    const base = {
      id: inv.id,
      title: inv.title,
      rules: inv.rules,
      area: (rule?.area ?? 'errors') as Area,
      level: levelOfRules(inv.rules),
      judged,
      breaches,
    };
    if (overBudget) {
      return {
        ...base,
        status: 'failed' as const,
        reason: `not judged: it ran over its ${clock.budgetMs / 1000} s budget after ${judged} of ${located.length} answers (a defect of the suite; the run went on)`,
      };
    }
    if (judged === 0) {
      return {
        ...base,
        status: 'skipped' as const,
        reason: 'inconclusive: no answer of its kind in this run',
      };
    }
    const [first] = breaches;
    if (!first) return { ...base, status: 'passed' as const };
    const more = broken > 1 ? ` (and ${broken - 1} more of ${judged} answers)` : '';
    return {
      ...base,
      status: 'failed' as const,
      reason: `${first.problem}: ${where(first.exchange)}, sent by ${first.checkId}${more}`,
    };
  });
}

/** A check record of the results, as the reporter keeps them (src/report/types.ts CheckResult). */
export interface InvariantResult {
  id: string;
  title: string;
  area: Area;
  rules: string[];
  level: RuleLevel;
  status: 'passed' | 'failed' | 'skipped';
  /** Failed, but only SHOULD rules and not strict: does not fail the run. */
  nonStrict?: boolean;
  reason?: string;
  failedExchange?: number;
  durationMs: number;
  exchanges: RecordedExchange[];
}

/**
 * Reads the OpenAPI documents and compiles the error body's schema in this thread ahead of the
 * judging: the reporter calls it as the run starts, while the workers load and the thread waits, so
 * the run's end (every exchange judged, then the reports) does not begin with them (about a third
 * of the judging's time). Anything wrong with the documents is left for the judging to report.
 */
export function prepareInvariants(): void {
  try {
    operations();
    validateErrorBody(undefined);
  } catch {}
}

/**
 * The invariants' verdicts over the checks of a run, as check records: a failed one holds the
 * exchanges that broke it (the first marked). A verdict about nothing this run touched (no answer
 * of its kind, no rule or area of the run) is left out; a run filtered by rule (--rule) keeps only
 * the invariants of the rules it ran, so it reports what it was asked for.
 */
/**
 * The last judgement, reused while the same exchanges are asked about: a run's reporters (the
 * results, the console tree, the closing line) each ask, and judging is the run's costliest pass
 * over target text (three passes took 1.6 s of the main thread with 60 KB error paths, issue 30).
 * Reused only for the very same exchange objects, in the same order, over the same bases.
 */
let lastJudged: { seen: readonly SeenExchange[]; bases: Bases; verdicts: InvariantVerdict[] } | undefined;

function judgedOnce(seen: readonly SeenExchange[], bases: Bases): InvariantVerdict[] {
  const last = lastJudged;
  if (
    last &&
    last.bases.apiBaseUrl === bases.apiBaseUrl &&
    last.bases.petstoreBaseUrl === bases.petstoreBaseUrl &&
    last.seen.length === seen.length &&
    last.seen.every((s, i) => s.exchange === seen[i]?.exchange && s.checkId === seen[i]?.checkId)
  ) {
    return last.verdicts;
  }
  const verdicts = [...judgeInvariants(seen, bases), ...judgeRelations(seen, bases)];
  lastJudged = {
    seen,
    bases: { apiBaseUrl: bases.apiBaseUrl, petstoreBaseUrl: bases.petstoreBaseUrl },
    verdicts,
  };
  return verdicts;
}

/** Who sent an exchange of the setup diagnosis, as a breach names its sender. */
export const SETUP_SENDER = 'the setup diagnosis (before the checks)';

export function invariantResults(
  checks: readonly {
    id: string;
    rules: readonly string[];
    area: Area;
    exchanges: readonly RecordedExchange[];
  }[],
  bases: Bases,
  strict: boolean,
  filtered = false,
  setup: readonly RecordedExchange[] = [],
): InvariantResult[] {
  // The setup diagnosis's requests come first, as they were sent; they select no rule or area.
  const seen = [
    ...setup.map((exchange) => ({ checkId: SETUP_SENDER, exchange })),
    ...checks.flatMap((c) => c.exchanges.map((exchange) => ({ checkId: c.id, exchange }))),
  ];
  const rules = new Set(checks.flatMap((c) => c.rules));
  const areas = new Set(checks.map((c) => c.area));
  const inScope = (v: InvariantVerdict) =>
    filtered
      ? v.rules.some((r) => rules.has(r))
      : v.status !== 'skipped' || v.rules.some((r) => rules.has(r)) || areas.has(v.area);
  // A breach in the diagnosis's requests has no check of its own to show it: reported whatever the
  // selection (a check's own 5xx fails that check, src/checks/define.ts).
  const bySetup = (v: InvariantVerdict) => v.breaches.some((b) => b.checkId === SETUP_SENDER);
  return judgedOnce(seen, bases)
    .filter((v) => inScope(v) || bySetup(v))
    .map((v) => ({
      id: v.id,
      title: v.title,
      area: v.area,
      rules: v.rules,
      level: v.level,
      status: v.status,
      ...(v.status === 'failed' && !failsTheRun(v.level, strict) ? { nonStrict: true } : {}),
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
      ...(v.breaches.length ? { failedExchange: 0 } : {}),
      durationMs: 0,
      exchanges: v.breaches.map((b) => b.exchange),
    }));
}
