// The relations over pairs of answers: each holds on answers that agree, breaks on the pair that
// disagrees (with both exchanges and a command repeating both), and leaves alone what the spec
// leaves open (a form refused outright, a refusal of a pet whose id was taken, a timestamp without
// its zone).
import { describe, expect, it } from 'vitest';
import { invariantChecks, invariantResults } from '../../src/checks/invariants.ts';
import {
  judgeRelations,
  relationBreaches,
  relationChecks,
  TIMESTAMP_TOLERANCE_S,
} from '../../src/checks/relations.ts';
import type { RecordedExchange } from '../../src/client/index.ts';

const bases = {
  apiBaseUrl: 'http://127.0.0.1:4010/api/',
  petstoreBaseUrl: 'http://127.0.0.1:4010/petstore/v1',
};
const KEY = { 'x-api-key-id': 'k', 'x-api-key-secret': '[REDACTED]' };
const BEARER = { authorization: 'Bearer t' };

function exchange(
  method: string,
  path: string,
  status: number,
  body: unknown,
  extra: Partial<RecordedExchange> = {},
): RecordedExchange {
  return {
    method,
    url: `http://127.0.0.1:4010${path}`,
    requestHeaders: {},
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: typeof body === 'string' ? body : JSON.stringify(body),
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    ...extra,
  };
}

const page = (current: number, size: number, total = 137) => {
  const pages = Math.ceil(total / size);
  return {
    pagination: {
      total_items: total,
      showing_items: size,
      total_pages: pages,
      current_page: current,
      previous_page: Math.max(1, current - 1),
      next_page: Math.min(pages, current + 1),
    },
    data: Array.from({ length: size }, (_, i) => ({ id: `c${(current - 1) * size + i}` })),
    extra: {},
  };
};

const refusal = (status: number, path: string, timestamp = '2026-01-01T00:00:00.000Z') => ({
  code: 'UNAUTHORIZED',
  message: 'no',
  status_code: status,
  timestamp,
  path,
  handled: true,
});

const one = (id: string, exchanges: RecordedExchange[], checkId = 'C') =>
  relationBreaches(
    exchanges.map((exchange) => ({ checkId, exchange })),
    bases,
    [id],
  )[0];

describe('the same question through each credential', () => {
  const id = 'REL-PAGE-SIZE-EACH-CREDENTIAL';
  it('pages before the last hold as many items for the API key as for the bearer token', () => {
    const key = exchange('GET', '/api/v1/customers', 200, page(1, 50), { requestHeaders: KEY });
    const token = exchange('GET', '/api/v1/customers?page=2', 200, page(2, 50), { requestHeaders: BEARER });
    expect(one(id, [key, token])).toMatchObject({ judged: 1, breaches: [] });
    const small = exchange('GET', '/api/v1/customers', 200, page(1, 20), { requestHeaders: BEARER });
    const broken = one(id, [key, small]);
    expect(broken?.breaches[0]).toMatchObject({ first: key, second: small });
    expect(broken?.breaches[0]?.problem).toContain('50 items for the API key, 20 for the bearer token');
  });

  it('compares nothing from a last page, a page of another parameter, or one credential alone', () => {
    const key = exchange('GET', '/api/v1/customers', 200, page(1, 50), { requestHeaders: KEY });
    const last = exchange('GET', '/api/v1/customers?page=7', 200, page(7, 20, 140), {
      requestHeaders: BEARER,
    });
    const other = exchange('GET', '/api/v1/customers?size=20', 200, page(1, 20), { requestHeaders: BEARER });
    expect(one(id, [key, last, other])?.judged).toBe(0);
    expect(one(id, [key])?.judged).toBe(0);
  });

  it('reads the scheme from the replay when the recorded Authorization is redacted whole', () => {
    const key = exchange('GET', '/api/v1/customers', 200, page(1, 50), { requestHeaders: KEY });
    const token = exchange('GET', '/api/v1/customers', 200, page(1, 20), {
      requestHeaders: { authorization: '[REDACTED]' },
      replay: {
        method: 'GET',
        url: ['http://127.0.0.1:4010/api/v1/customers'],
        headers: [['authorization', ['Bearer ', { variable: 'ACCESS_TOKEN' }]]],
      },
    });
    expect(one(id, [key, token])?.breaches).toHaveLength(1);
  });
});

describe('the same broken input through each credential', () => {
  const id = 'REL-REFUSAL-EACH-CREDENTIAL';
  const ask = (page: string, status: number, headers: Record<string, string>) =>
    exchange('GET', `/api/v1/customers?page=${page}`, status, status < 300 ? page1 : refusal(status, '/x'), {
      requestHeaders: headers,
    });
  const page1 = page(1, 50);

  it('a page refused through the API key is refused through the bearer token (any 4xx)', () => {
    expect(one(id, [ask('0', 400, KEY), ask('0', 422, BEARER)])).toMatchObject({ judged: 1, breaches: [] });
    const accepted = ask('0', 200, BEARER);
    expect(one(id, [ask('0', 400, KEY), accepted])?.breaches[0]).toMatchObject({ second: accepted });
  });

  it('leaves alone a page number, a scheme the route refuses, and another value', () => {
    expect(one(id, [ask('2', 200, KEY), ask('2', 422, BEARER)])?.judged).toBe(0);
    expect(one(id, [ask('0', 400, KEY), ask('0', 403, BEARER)])?.judged).toBe(0);
    expect(one(id, [ask('0', 400, KEY), ask('abc', 200, BEARER)])?.judged).toBe(0);
  });
});

describe('the same question in every form', () => {
  it('a form answered 2xx without credentials, where the plain request is refused, breaks BEA-02', () => {
    const plain = exchange('GET', '/api/v1/customers', 401, refusal(401, '/api/v1/customers'));
    const slash = exchange('GET', '/api/v1/customers/', 200, page(1, 50));
    const unknown = exchange('GET', '/api/v1/customers?conformance_probe=1', 401, refusal(401, '/x'));
    const result = one('REL-ANONYMOUS-EACH-FORM', [plain, slash, unknown]);
    expect(result?.judged).toBe(2);
    expect(result?.breaches).toHaveLength(1);
    expect(result?.breaches[0]).toMatchObject({ first: plain, second: slash });
  });

  it('a form refused outright (404 for a trailing slash) is tolerated', () => {
    const plain = exchange('GET', '/api/v1/customers', 401, refusal(401, '/api/v1/customers'));
    const slash = exchange('GET', '/api/v1/customers/', 404, refusal(404, '/api/v1/customers/'));
    expect(one('REL-ANONYMOUS-EACH-FORM', [plain, slash])?.breaches).toEqual([]);
  });

  it('pairs forms within one check only (another moment may rightly differ)', () => {
    const plain = exchange('GET', '/api/v1/customers', 401, refusal(401, '/api/v1/customers'));
    const slash = exchange('GET', '/api/v1/customers/', 200, page(1, 50));
    const seen = [
      { checkId: 'A', exchange: plain },
      { checkId: 'B', exchange: slash },
    ];
    expect(relationBreaches(seen, bases, ['REL-ANONYMOUS-EACH-FORM'])[0]?.judged).toBe(0);
  });

  it("pairs a check's forms with the shared plain answer it used (asked once, attached to both checks)", () => {
    const plain = exchange('GET', '/api/v1/customers', 401, refusal(401, '/api/v1/customers'));
    const slash = exchange('GET', '/api/v1/customers/', 200, page(1, 50));
    const seen = [
      { checkId: 'BEA-NO-CREDENTIALS-listCustomers', exchange: plain },
      { checkId: 'BEA-EACH-FORM', exchange: plain },
      { checkId: 'BEA-EACH-FORM', exchange: slash },
    ];
    const [result] = judgeRelations(seen, bases).filter((r) => r.id === 'REL-ANONYMOUS-EACH-FORM');
    expect(result).toMatchObject({ status: 'failed', judged: 1 });
    expect(result?.breaches.map((b) => b.exchange)).toEqual([plain, slash]);
  });

  it('a percent-encoded or reordered page is the same page; an unknown parameter may be refused', () => {
    const id = 'REL-SAME-PAGE-EACH-FORM';
    const plain = exchange('GET', '/api/v1/customers?page=2', 200, page(2, 50), { requestHeaders: KEY });
    const encoded = exchange('GET', '/api/v1/customers?page=%32', 200, page(2, 50), { requestHeaders: KEY });
    const refused = exchange('GET', '/api/v1/customers?x=1&page=2', 400, refusal(400, '/x'), {
      requestHeaders: KEY,
    });
    expect(one(id, [plain, encoded, refused])).toMatchObject({ judged: 1, breaches: [] });
    const first = exchange('GET', '/api/v1/customers?x=1&page=2', 200, page(1, 50), { requestHeaders: KEY });
    expect(one(id, [plain, first])?.breaches[0]?.second).toBe(first);
  });
});

describe('pages compared as values, exactly', () => {
  const id = 'REL-SAME-PAGE-EACH-FORM';
  const big = (ids: string[], order: 'id-first' | 'name-first') =>
    `{"pagination":{"total_items":137,"showing_items":2,"total_pages":69,"current_page":2,"previous_page":1,"next_page":3},"data":[${ids
      .map((i) => (order === 'id-first' ? `{"id":${i},"name":"n"}` : `{"name":"n","id":${i}}`))
      .join(',')}],"extra":{}}`;

  it("the order of an object's keys says nothing: the same page in another key order agrees", () => {
    const plain = exchange('GET', '/api/v1/customers?page=2', 200, big(['1', '2'], 'id-first'), {
      requestHeaders: KEY,
    });
    const encoded = exchange('GET', '/api/v1/customers?page=%32', 200, big(['1', '2'], 'name-first'), {
      requestHeaders: KEY,
    });
    expect(one(id, [plain, encoded])).toMatchObject({ judged: 1, breaches: [] });
  });

  it('ids that differ only beyond 2^53 are other customers (a double would call them the same)', () => {
    const plain = exchange(
      'GET',
      '/api/v1/customers?page=2',
      200,
      big(['9007199254740993', '2'], 'id-first'),
      {
        requestHeaders: KEY,
      },
    );
    const other = exchange(
      'GET',
      '/api/v1/customers?page=%32',
      200,
      big(['9007199254740992', '2'], 'id-first'),
      {
        requestHeaders: KEY,
      },
    );
    expect(one(id, [plain, other])?.breaches).toHaveLength(1);
  });
});

describe('no side effect from a refusal', () => {
  const id = 'REL-REFUSED-WRITE-LEAVES-NOTHING';
  const post = (status: number) =>
    exchange('POST', '/petstore/v1/pets', status, '', { requestBody: '{"id":77,"name":12345}' });
  const read = (status: number) =>
    exchange('GET', '/petstore/v1/pets/77', status, status === 200 ? { id: 77, name: '12345' } : 'no');

  it('a pet absent before a refused creation is absent after it, read back and listed', () => {
    expect(one(id, [read(404), post(400), read(404)])).toMatchObject({ judged: 1, breaches: [] });
    const after = read(200);
    const broken = one(id, [read(404), post(400), after]);
    expect(broken?.breaches[0]).toMatchObject({ second: after });
    const list = exchange('GET', '/petstore/v1/pets?limit=100', 200, [{ id: 77, name: '12345' }]);
    expect(one(id, [read(404), post(400), list])?.breaches).toHaveLength(1);
  });

  it('judges nothing where the id was taken, or its state unknown, before the refusal', () => {
    expect(one(id, [read(200), post(409), read(200)])?.judged).toBe(0);
    expect(one(id, [post(400), read(200)])?.judged).toBe(0);
    // Created in between: the refusal of a second creation leaves the first one.
    expect(one(id, [read(404), post(201), post(409), read(200)])?.judged).toBe(0);
  });
});

describe('the links an answer gives, followed once', () => {
  const id = 'REL-NEXT-LINK-LEADS-ON';
  const list = (path: string, ids: number[], next?: string) =>
    exchange(
      'GET',
      path,
      200,
      ids.map((n) => ({ id: n, name: `p${n}` })),
      {
        responseHeaders: { 'content-type': 'application/json', ...(next ? { 'x-next': next } : {}) },
      },
    );

  it('the page x-next leads to is not the very page that gave it', () => {
    const link = 'http://127.0.0.1:4010/petstore/v1/pets?limit=3&after=3';
    const first = list('/petstore/v1/pets?limit=3', [1, 2, 3], link);
    expect(one(id, [first, list('/petstore/v1/pets?limit=3&after=3', [4, 5, 6])])).toMatchObject({
      judged: 1,
      breaches: [],
    });
    const again = list('/petstore/v1/pets?limit=3&after=3', [1, 2, 3]);
    expect(one(id, [first, again])?.breaches[0]).toMatchObject({ first, second: again });
  });

  it('judges a relative link too, and leaves alone an offset shifted by pets created meanwhile', () => {
    const first = list('/petstore/v1/pets?limit=3', [1, 2, 3], 'pets?limit=3&page=2');
    const shifted = list('/petstore/v1/pets?limit=3&page=2', [3, 4, 5]);
    expect(one(id, [first, shifted])).toMatchObject({ judged: 1, breaches: [] });
  });
});

describe('agreement with the clock', () => {
  const id = 'REL-ERROR-TIMESTAMP-CLOCK';
  const at = (timestamp: string, date?: string) =>
    exchange('GET', '/api/v1/x', 404, refusal(404, '/api/v1/x', timestamp), {
      responseHeaders: { 'content-type': 'application/json', ...(date ? { date } : {}) },
      startedAt: '2026-01-01T10:00:00.000Z',
    });

  it(`a timestamp within ${TIMESTAMP_TOLERANCE_S} s of the Date header holds, in any zone`, () => {
    const date = 'Thu, 01 Jan 2026 10:00:00 GMT';
    expect(
      one(id, [at('2026-01-01T10:00:00.900Z', date), at('2026-01-01T11:00:00+01:00', date)]),
    ).toMatchObject({ judged: 2, breaches: [] });
    const late = at('2026-01-01T11:00:00.000Z', date);
    expect(one(id, [late])?.breaches[0]?.problem).toMatch(
      /^timestamp 2026-01-01T11:00:00.000Z is 3599 s from the answer's Date/,
    );
  });

  it("without a Date header the client's clock is the reference; a timestamp without a zone is no moment", () => {
    expect(one(id, [at('2026-01-01T10:01:00Z')])?.breaches).toEqual([]);
    expect(one(id, [at('2026-01-01T11:00:00Z')])?.breaches).toHaveLength(1);
    expect(one(id, [at('2026-01-01T11:00:00')])?.judged).toBe(0);
  });
});

describe('as verdicts of the run', () => {
  it('are listed with the invariants, each naming the spec words it rests on', () => {
    const ids = invariantChecks().map((c) => c.id);
    for (const r of relationChecks()) {
      expect(ids).toContain(r.id);
      expect(r.words.length).toBeGreaterThan(20);
    }
  });

  it('a breach is reported under its rule with both exchanges and a command repeating both', () => {
    const key = exchange('GET', '/api/v1/customers', 200, page(1, 50), { requestHeaders: KEY });
    const small = exchange('GET', '/api/v1/customers', 200, page(1, 20), { requestHeaders: BEARER });
    const verdict = judgeRelations(
      [
        { checkId: 'A', exchange: key },
        { checkId: 'B', exchange: small },
      ],
      bases,
    ).find((v) => v.id === 'REL-PAGE-SIZE-EACH-CREDENTIAL');
    expect(verdict).toMatchObject({ status: 'failed', rules: ['PAG-12'], area: 'customers-pagination' });
    expect(verdict?.breaches.map((b) => b.exchange)).toEqual([key, small]);
    expect((verdict?.reason?.match(/curl /g) ?? []).length).toBe(2);
    const results = invariantResults(
      [{ id: 'A', rules: ['PAG-12'], area: 'customers-pagination', exchanges: [key, small] }],
      bases,
      true,
    );
    expect(results.find((r) => r.id === 'REL-PAGE-SIZE-EACH-CREDENTIAL')).toMatchObject({
      status: 'failed',
      exchanges: [key, small],
    });
  });

  it('nothing to compare is inconclusive, never passed', () => {
    const key = exchange('GET', '/api/v1/customers', 200, page(1, 50), { requestHeaders: KEY });
    const verdicts = judgeRelations([{ checkId: 'A', exchange: key }], bases);
    expect(verdicts.find((v) => v.id === 'REL-PAGE-SIZE-EACH-CREDENTIAL')?.status).toBe('skipped');
  });
});
