// GET /v1/customers and the paged envelope: every page walked once, edges checked on the first, a
// middle and the last page, and the shown error for a page beyond the end.

import {
  ensure,
  errorCode,
  expectErrorBody,
  expectJsonBody,
  expectStatus,
  expectValid,
  is4xx,
  mentionsNumber,
} from '../src/checks/assertions.ts';
import { mapConcurrent, POLITE_CONCURRENCY } from '../src/checks/concurrency.ts';
import { area, type CheckContext, check } from '../src/checks/define.ts';
import { expect } from '../src/checks/expect.ts';
import { expectRelations } from '../src/checks/relation-check.ts';
import { customersBearer, isSchemeRefusal } from '../src/checks/route-schemes.ts';
import { shared } from '../src/checks/shared.ts';
import type { ApiClient, ApiResponse, RecordedExchange } from '../src/client/index.ts';
import {
  type PagedEnvelope,
  type Pagination,
  type Unchecked,
  validateResponse,
} from '../src/contract/index.ts';

// A walk of every page is bounded: a huge live collection gets its edges checked, not every page.
const MAX_WALKED_PAGES = 40;
const FIRST_PAGE = 1;

interface Page {
  requested: number | undefined;
  res: ApiResponse;
  pagination: Pagination;
  data: unknown[];
}

// Where a server that reads the page into a fixed-size integer wraps round or loses precision.
const INTEGER_BOUNDARIES = [
  2n ** 31n - 1n,
  2n ** 31n,
  2n ** 31n + 1n,
  2n ** 32n - 1n,
  2n ** 32n,
  2n ** 32n + 1n,
  2n ** 53n - 1n,
  2n ** 53n,
  2n ** 53n + 1n,
  2n ** 63n - 1n,
  2n ** 63n,
  2n ** 64n + 1n,
  10n ** 19n + 1n, // 20 digits
].map(String);

function getPage(client: ApiClient, page?: number | string): Promise<ApiResponse> {
  return client.request({
    service: 'main',
    method: 'GET',
    path: 'v1/customers',
    query: { page },
    auth: 'apiKey',
  });
}

function asPage(requested: number | undefined, res: ApiResponse): Page {
  expectStatus(res, 200, `GET /v1/customers${requested === undefined ? '' : `?page=${requested}`}`);
  const body = expectJsonBody(res, 'the customers page') as Unchecked<PagedEnvelope>;
  expect(body?.pagination, 'the envelope has no pagination object').toBeTypeOf('object');
  ensure(Array.isArray(body?.data), 'the envelope has no data array');
  return { requested, res, pagination: body.pagination as Pagination, data: body.data as unknown[] };
}

// Item identity: the item shape is not shown, so an id when items have one, else the whole item.
function identity(item: unknown): string {
  const id = (item as { id?: unknown } | null)?.id;
  return id === undefined ? JSON.stringify(item) : `id:${JSON.stringify(id)}`;
}

const firstPage = shared(async (client) => asPage(undefined, await getPage(client)));

/** An answer, or the transport error that stood for it: one page's failure is not the others'. */
type Settled = { res: ApiResponse; error?: undefined } | { res?: undefined; error: unknown };
const settle = (ask: Promise<ApiResponse>): Promise<Settled> =>
  ask.then(
    (res) => ({ res }),
    (error: unknown) => ({ error }),
  );
const settled = (s: Settled | undefined): ApiResponse => {
  if (!s?.res) throw s?.error ?? new Error('no answer');
  return s.res;
};

// Page 1 once, then the other pages and the one beyond the last side by side: the walk's checks and
// the beyond-last checks judge the same page 1 (asked twice before, proving nothing new).
const pages = shared(async (client) => {
  const first = asPage(FIRST_PAGE, await getPage(client, FIRST_PAGE));
  const total = first.pagination.total_pages;
  // Without a whole number of pages there is nothing to walk to: say so, not "too many pages".
  if (!Number.isInteger(total) || total < 1) {
    return {
      first,
      rest: [] as { page: number; answer: Settled }[],
      beyond: await settle(getPage(client, total + 1)),
      complete: false,
      why: `total_pages is ${JSON.stringify(total) ?? 'missing'}, not a whole number of pages: the pages cannot be walked`,
    };
  }
  const wanted =
    total <= MAX_WALKED_PAGES
      ? Array.from({ length: Math.max(total - 1, 0) }, (_, i) => i + 2)
      : [...new Set([Math.ceil(total / 2), total].filter((p) => Number.isInteger(p) && p > FIRST_PAGE))];
  // Pages are independent requests: fetched together (a few at a time), so a far target costs a
  // couple of round trips, not one per page.
  const [beyond, ...rest] = await mapConcurrent([total + 1, ...wanted], POLITE_CONCURRENCY, async (page) => ({
    page,
    answer: await settle(getPage(client, page)),
  }));
  return {
    first,
    rest,
    beyond: beyond?.answer,
    complete: wanted.length === Math.max(total - 1, 0),
    why: `the collection has more than ${MAX_WALKED_PAGES} pages: only its edges are checked`,
  };
});

const walk = async (t: CheckContext) => {
  const { first, rest, complete, why } = await pages(t);
  return { pages: [first, ...rest.map(({ page, answer }) => asPage(page, settled(answer)))], complete, why };
};

const beyond = async (t: CheckContext) => {
  const { first, beyond } = await pages(t);
  return { maxPage: first.pagination.total_pages, res: settled(beyond) };
};

// Pages far beyond the end, each asked once for every check that judges it (PAG-BEYOND-FAR, -EVERY-PAGE
// and PAG-BOUNDARIES ask some of the same pages: the same request's answer serves each).
const farPages = new Map<string, (t: CheckContext) => Promise<ApiResponse>>();
function farPage(t: CheckContext, page: number | string): Promise<ApiResponse> {
  const key = String(page);
  let ask = farPages.get(key);
  if (!ask) {
    ask = shared(async (client) => getPage(client, key));
    farPages.set(key, ask);
  }
  return ask(t);
}

// '00' and '000': zero written with leading zeros is still page 0 (a server that strips one zero
// of '000' reads page 0 and answers it with a 200).
const INVALID_PAGES = ['0', '00', '000', '-1', 'abc', '1.5'] as const;
// Each asked once with the API key: PAG-INVALID-<page> judges the answer, and
// PAG-INVALID-EACH-CREDENTIAL compares it with the bearer token's (the same request twice proved
// nothing the first did not).
const invalidPage = Object.fromEntries(
  INVALID_PAGES.map((page) => [
    page,
    shared(async (client) => ({ res: await getPage(client, page), exchanges: client.recorder.exchanges() })),
  ]),
) as Record<
  (typeof INVALID_PAGES)[number],
  (t: CheckContext) => Promise<{ res: ApiResponse; exchanges: RecordedExchange[] }>
>;

// Whether the route takes a bearer token, learned once for PAG-BEARER and PAG-INVALID-EACH-CREDENTIAL
// (each asked it with a token of its own before: the same questions, answered the same). Its token
// is then theirs: the page it answered and the pages they ask go through one token.
const detection = shared(async (client, config) => {
  const use = await customersBearer(client, config);
  const token = client.tokens.tokenRequests > 0 ? await client.tokens.getToken() : undefined;
  return { use, token, exchanges: client.recorder.exchanges() };
});
const detected = async (t: CheckContext) => {
  const found = await detection(t);
  if (found.token !== undefined) t.client.tokens.useToken(found.token);
  return found;
};

area('customers-pagination', () => {
  check(
    {
      id: 'PAG-ENVELOPE',
      title: 'GET /v1/customers answers the paged envelope',
      rules: ['PAG-01', 'PAG-02'],
    },
    async (t) => {
      const page = await firstPage(t);
      expectValid(validateResponse('listCustomers', 200, page.res.body), 'the customers page');
    },
  );

  check(
    { id: 'PAG-DEFAULT-PAGE', title: 'without page, the first page is returned', rules: ['PAG-06'] },
    async (t) => {
      const page = await firstPage(t);
      expect(page.pagination.current_page, 'current_page without a page parameter').toBe(FIRST_PAGE);
    },
  );

  check(
    { id: 'PAG-SHOWING', title: 'showing_items equals the items of each page', rules: ['PAG-03'] },
    async (t) => {
      for (const page of (await walk(t)).pages) {
        expect(page.pagination.showing_items, `showing_items on page ${page.requested}`).toBe(
          page.data.length,
        );
      }
    },
  );

  check(
    {
      id: 'PAG-WALK',
      title: 'walking every page yields each item exactly once, total_items in all',
      rules: ['PAG-04'],
    },
    async (t) => {
      const { pages, complete, why } = await walk(t);
      if (!complete) t.skip(why);
      const seen = new Map<string, number>();
      for (const page of pages) {
        for (const item of page.data) {
          const key = identity(item);
          const earlier = seen.get(key);
          expect(
            earlier,
            `item ${key} of page ${page.requested} was already on page ${earlier}`,
          ).toBeUndefined();
          seen.set(key, page.requested ?? FIRST_PAGE);
        }
      }
      const totalItems = pages[0]?.pagination.total_items;
      expect(seen.size, 'items across all pages vs total_items').toBe(totalItems);
    },
  );

  check(
    {
      id: 'PAG-TOTAL-PAGES',
      title: 'total_pages is the same on every page and the walk ends there',
      rules: ['PAG-05'],
    },
    async (t) => {
      const { pages } = await walk(t);
      const first = pages[0] as Page;
      const { total_pages: totalPages, total_items: totalItems } = first.pagination;
      for (const page of pages) {
        expect(page.pagination.total_pages, `total_pages on page ${page.requested}`).toBe(totalPages);
      }
      const last = pages.at(-1) as Page;
      if (totalItems > 0) {
        expect(last.data.length, `the last page (${totalPages}) holds items`).toBeGreaterThan(0);
        // Every page before the last is full, so the pages add up to total_items.
        const pageSize = first.data.length;
        expect(Math.ceil(totalItems / pageSize), 'total_pages vs total_items and the page size').toBe(
          totalPages,
        );
      }
    },
  );

  check({ id: 'PAG-CURRENT', title: 'current_page is the page requested', rules: ['PAG-06'] }, async (t) => {
    for (const page of (await walk(t)).pages) {
      expect(page.pagination.current_page, `current_page when page=${page.requested}`).toBe(page.requested);
    }
  });

  check(
    {
      id: 'PAG-PREVIOUS',
      title: 'previous_page is the first page on the first page, else the page before',
      rules: ['PAG-07'],
    },
    async (t) => {
      for (const page of (await walk(t)).pages) {
        const current = page.requested ?? FIRST_PAGE;
        const expected = current === FIRST_PAGE ? FIRST_PAGE : current - 1;
        expect(page.pagination.previous_page, `previous_page on page ${current}`).toBe(expected);
      }
    },
  );

  check(
    {
      id: 'PAG-NEXT',
      title: 'next_page is the last page on the last page, else the page after',
      rules: ['PAG-08'],
    },
    async (t) => {
      for (const page of (await walk(t)).pages) {
        const current = page.requested ?? FIRST_PAGE;
        const last = Math.max(page.pagination.total_pages, FIRST_PAGE);
        const expected = current >= last ? last : current + 1;
        expect(page.pagination.next_page, `next_page on page ${current} of ${last}`).toBe(expected);
      }
    },
  );

  check(
    {
      id: 'PAG-BEYOND-STATUS',
      title: 'a page beyond total_pages answers 422 VALIDATION_ERROR',
      rules: ['PAG-09'],
    },
    async (t) => {
      const { maxPage, res } = await beyond(t);
      expectStatus(res, 422, `GET /v1/customers?page=${maxPage + 1}`);
      expectErrorBody(res, 'the 422');
      expect(errorCode(res), 'code of the 422').toBe('VALIDATION_ERROR');
    },
  );

  check(
    {
      id: 'PAG-BEYOND-MESSAGE',
      title: 'the 422 for a page beyond the end states the maximum page',
      rules: ['PAG-10'],
    },
    async (t) => {
      const { maxPage, res } = await beyond(t);
      const body = expectErrorBody(res, `GET /v1/customers?page=${maxPage + 1}`);
      const message = String(body.message);
      expect(mentionsNumber(message, maxPage), `message "${message}" names the maximum page ${maxPage}`).toBe(
        true,
      );
    },
  );

  check(
    {
      id: 'PAG-BEYOND-FAR',
      title: 'pages far beyond the end (max+2, max+10, 2^31-1) answer the same 422 VALIDATION_ERROR',
      rules: ['PAG-09'],
    },
    async (t) => {
      const { maxPage } = await beyond(t);
      // Every one an ordinary integer page (a signed 32-bit one): "a value above total_pages yields 422".
      for (const page of [maxPage + 2, maxPage + 10, 2 ** 31 - 1].filter((p) => p > maxPage)) {
        const res = await farPage(t, page);
        expectStatus(res, 422, `GET /v1/customers?page=${page} (the last page is ${maxPage})`);
        expectErrorBody(res, `the 422 for page ${page}`);
        expect(errorCode(res), `code of the 422 for page ${page}`).toBe('VALIDATION_ERROR');
      }
    },
  );

  check(
    {
      id: 'PAG-BEYOND-MESSAGE-EVERY-PAGE',
      title: 'every 422 for a page beyond the end states the same maximum page, however far the page',
      rules: ['PAG-10'],
    },
    async (t) => {
      const { maxPage } = await beyond(t);
      const pages = [maxPage + 2, maxPage + 10, ...INTEGER_BOUNDARIES].filter(
        (p) => BigInt(p) > BigInt(maxPage) + 1n,
      );
      for (const page of pages) {
        const res = await farPage(t, page);
        // Another 4xx for a number too large to read is allowed (PAG-BOUNDARIES); a 422 states the maximum.
        if (res.status !== 422) continue;
        const message = String(expectErrorBody(res, `GET /v1/customers?page=${page}`).message);
        ensure(
          mentionsNumber(message, maxPage),
          `GET /v1/customers?page=${page}: the 422 message "${message}" does not state the maximum page ${maxPage}`,
          res,
        );
      }
    },
  );

  check(
    {
      id: 'PAG-BOUNDARIES',
      title:
        'pages at integer boundaries (2^31, 2^32, 2^53, 2^63, 20 digits) get the beyond-last answer or a 4xx',
      rules: ['PAG-09'],
    },
    async (t) => {
      const { maxPage } = await beyond(t);
      const pages = INTEGER_BOUNDARIES.filter((p) => BigInt(p) > BigInt(maxPage));
      const answers = await mapConcurrent(pages, POLITE_CONCURRENCY, async (page) => ({
        page,
        res: await farPage(t, page),
      }));
      for (const { page, res } of answers) {
        const current = (res.body as { pagination?: { current_page?: unknown } } | undefined)?.pagination
          ?.current_page;
        ensure(
          res.status >= 400 && res.status < 500,
          `GET /v1/customers?page=${page} (beyond the last page ${maxPage}) must get the 422 or another 4xx, got ${res.status}${current !== undefined ? ` with page ${JSON.stringify(current)}` : ''}`,
          res,
        );
        expectErrorBody(res, `GET /v1/customers?page=${page}`);
      }
    },
  );

  check(
    {
      id: 'PAG-BEYOND-BODY',
      title: 'the 422 for a page beyond the end has errors [] and handled true',
      rules: ['PAG-11'],
    },
    async (t) => {
      const { maxPage, res } = await beyond(t);
      const body = expectErrorBody(res, `GET /v1/customers?page=${maxPage + 1}`);
      expect(body.errors, 'errors of the 422').toEqual([]);
      expect(body.handled, 'handled of the 422').toBe(true);
    },
  );

  check({ id: 'PAG-PAGE-SIZE', title: 'the default page size is 50', rules: ['PAG-12'] }, async (t) => {
    const { pagination, data } = await firstPage(t);
    // A collection of fewer than 50 items on one page shows no page size: 20 items in one page fit
    // a page size of 20 as well as of 50, so the check proves nothing there.
    if (pagination.total_pages === 1 && pagination.total_items < 50) {
      t.skip(
        `inconclusive: the collection holds ${pagination.total_items} items, one page, which shows no page size below 50`,
      );
    }
    expect(data.length, 'items on the first page').toBe(Math.min(50, pagination.total_items));
  });

  for (const page of INVALID_PAGES) {
    check(
      {
        id: `PAG-INVALID-${page}`,
        title: `page=${page} is refused with a 4xx and the error body, not a 5xx`,
        rules: ['PAG-13'],
      },
      async (t) => {
        const { res } = await invalidPage[page](t);
        expectStatus(res, is4xx, `GET /v1/customers?page=${page}`);
        expectErrorBody(res, `GET /v1/customers?page=${page}`);
      },
    );
  }

  check(
    {
      id: 'PAG-BEARER',
      title:
        'GET /v1/customers answers a bearer token with the page where it takes one (its next_page, followed once, the page after), else refuses it with 401/403 and the error body',
      rules: ['PAG-14', 'PAG-08'],
    },
    async (t) => {
      const { use, exchanges: detectionExchanges } = await detected(t);
      if (!use.taken) {
        // Told (CUSTOMERS_AUTH=api-key) or seen: the refusal itself must be a proper one.
        const refusal = use.refusal;
        ensure(
          isSchemeRefusal(refusal),
          `GET /v1/customers with a bearer token it does not take: expected 401 or 403 with the error body, got ${refusal.status}`,
          refusal,
        );
        return;
      }
      // Detection asked this very page with the token this client now uses: its answer is the page
      // (asked only where CUSTOMERS_AUTH=both told it instead).
      const res =
        use.answer ??
        (await t.client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'bearer' }));
      expectStatus(res, 200, `GET /v1/customers with a bearer token (${use.how})`);
      expectValid(validateResponse('listCustomers', 200, res.body), 'the customers page');
      // next_page followed once through the same token: a page number of the same route, so it
      // leads nowhere but the configured base. The API key's pages are followed by the walk.
      const { current_page: current, next_page: next } = (res.body as PagedEnvelope).pagination;
      if (next === current) return;
      await t.client.request({
        service: 'main',
        method: 'GET',
        path: 'v1/customers',
        query: { page: next },
        auth: 'bearer',
      });
      expectRelations(t, ['REL-NEXT-PAGE-FOLLOWED'], { earlier: detectionExchanges });
    },
  );
  check(
    {
      id: 'PAG-INVALID-EACH-CREDENTIAL',
      title: 'page=0 and page=abc are answered alike through the API key and a bearer token',
      rules: ['PAG-13'],
    },
    async (t) => {
      // The same broken input through each credential the route takes (relations.ts): a refusal
      // through one is a refusal through the other. Where the route takes no bearer token, nothing
      // compares.
      // One token: detection's (shared with PAG-BEARER), and the asks use it.
      // The API key's answers are PAG-INVALID-0's and PAG-INVALID-abc's (shared), asked meanwhile.
      const [{ use }, ...keyAnswers] = await Promise.all([
        detected(t),
        invalidPage['0'](t),
        invalidPage.abc(t),
      ]);
      if (!use.taken) t.skip(`inconclusive: the route takes only the API key here (${use.how})`);
      await Promise.all(
        ['0', 'abc'].map((page) =>
          t.client.request({
            service: 'main',
            method: 'GET',
            path: 'v1/customers',
            query: { page },
            auth: 'bearer',
          }),
        ),
      );
      expectRelations(t, ['REL-REFUSAL-EACH-CREDENTIAL'], {
        earlier: keyAnswers.flatMap((a) => a.exchanges),
      });
    },
  );
});
