// Each relation of issue 31's items 4 and 5, against the reference server with the fault it was
// written for: the exchanges the checks send, judged with the invariants and every relation. Only
// that relation fails; removed, the fault passes (nothing else over the same answers sees it). The
// clean server passes with it.
import { describe, expect, it } from 'vitest';
import { type InvariantResult, invariantResults } from '../../src/checks/invariants.ts';
import { relationBreaches } from '../../src/checks/relations.ts';
import type { RecordedExchange } from '../../src/client/index.ts';
import type { Area } from '../../src/rules/catalogue.ts';
import type { Answer, CallOptions, TestServer } from '../reference/helpers.ts';
import { withServer } from '../reference/helpers.ts';

interface Check {
  id: string;
  rules: string[];
  area: Area;
  exchanges: RecordedExchange[];
}

/** Records as the suite's recorder would (in order, a millisecond apart); headers as sent. */
function recorder(s: TestServer) {
  let at = Date.parse('2026-01-01T00:00:00.000Z');
  return async (path: string, options: CallOptions = {}): Promise<RecordedExchange> => {
    const a: Answer = await s.call(path, options);
    at += 1000;
    return {
      method: options.method ?? 'GET',
      url: s.url(path),
      requestHeaders: options.headers ?? {},
      status: a.status,
      responseHeaders: a.headers,
      responseBody: a.text,
      startedAt: new Date(at).toISOString(),
      durationMs: 1,
    };
  };
}

function verdicts(s: TestServer, checks: Check[]): InvariantResult[] {
  const bases = { apiBaseUrl: s.running.apiBaseUrl, petstoreBaseUrl: s.running.petstoreBaseUrl };
  return invariantResults(checks, bases, true);
}

const failed = (results: InvariantResult[]) => results.filter((r) => r.status === 'failed').map((r) => r.id);

/** The relation fails under the fault, and without it nothing fails: the fault would pass. */
async function onlyItCatches(
  relation: string,
  fault: string,
  exchangesOf: (s: TestServer) => Promise<Check[]>,
): Promise<void> {
  await withServer({}, async (s) => {
    const clean = verdicts(s, await exchangesOf(s));
    expect(failed(clean)).toEqual([]);
    expect(clean.find((r) => r.id === relation)?.status).toBe('passed');
  });
  await withServer({ faults: [fault] }, async (s) => {
    const results = verdicts(s, await exchangesOf(s));
    expect(failed(results)).toEqual([relation]);
    expect(failed(results.filter((r) => r.id !== relation))).toEqual([]);
  });
}

describe('removed, each relation lets its fault pass', () => {
  it('REL-NEXT-PAGE-FOLLOWED catches bearer-pages-repeat-first', async () => {
    await onlyItCatches('REL-NEXT-PAGE-FOLLOWED', 'bearer-pages-repeat-first', async (s) => {
      const ask = recorder(s);
      const headers = await s.bearerHeaders();
      const first = await ask('/api/v1/customers', { headers });
      const next = (JSON.parse(first.responseBody ?? '{}') as { pagination: { next_page: number } })
        .pagination.next_page;
      const followed = await ask(`/api/v1/customers?page=${next}`, { headers });
      return [
        { id: 'PAG-BEARER', rules: ['PAG-14'], area: 'customers-pagination', exchanges: [first, followed] },
      ];
    });
  });

  const afterRefusals = (
    fault: string,
    path: string,
    credential: (s: TestServer) => Promise<Record<string, string>>,
    refusal: (headers: Record<string, string>) => Record<string, string>,
    times: number,
  ) =>
    onlyItCatches('REL-ACCEPTED-AFTER-REFUSALS', fault, async (s) => {
      const ask = recorder(s);
      const headers = await credential(s);
      const before = await ask(path, { headers });
      const refused: RecordedExchange[] = [];
      for (let i = 0; i < times; i++) refused.push(await ask(path, { headers: refusal(headers) }));
      const after = await ask(path, { headers });
      return [
        // The answer before is shared work, attached to the acceptance check and the one after.
        { id: 'ACCEPT', rules: ['BEA-01'], area: 'bearer', exchanges: [before] },
        { id: 'REFUSALS', rules: ['BEA-04'], area: 'bearer', exchanges: refused },
        { id: 'X-ACCEPTED-AFTER-REFUSALS', rules: ['BEA-01'], area: 'bearer', exchanges: [before, after] },
      ];
    });

  it('REL-ACCEPTED-AFTER-REFUSALS catches refused-scheme-revokes-token', async () => {
    await afterRefusals(
      'refused-scheme-revokes-token',
      '/api/v1/user/me',
      (s) => s.bearerHeaders(),
      (h) => ({ authorization: String(h.authorization).replace(/^Bearer /, 'Basic ') }),
      1,
    );
  });

  it('REL-ACCEPTED-AFTER-REFUSALS catches near-miss-locks-api-key', async () => {
    await afterRefusals(
      'near-miss-locks-api-key',
      '/api/v1/customers',
      async (s) => s.keyHeaders(),
      (h) => ({ ...h, 'x-api-key-secret': `${h['x-api-key-secret']}x` }),
      6,
    );
  });
});

// What the two relations leave alone: what the spec allows, or what says nothing.
const bases = {
  apiBaseUrl: 'http://127.0.0.1:4010/api/',
  petstoreBaseUrl: 'http://127.0.0.1:4010/petstore/v1',
};
const BEARER = { authorization: 'Bearer t' };
const KEY = { 'x-api-key-id': 'k', 'x-api-key-secret': '[REDACTED]' };
let second = 0;
function made(
  path: string,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): RecordedExchange {
  second++;
  return {
    method: 'GET',
    url: `http://127.0.0.1:4010${path}`,
    requestHeaders: headers,
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: JSON.stringify(body),
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    durationMs: 1,
  };
}
const envelope = (current: number, pages: number, ids: string[]) => ({
  pagination: {
    total_items: pages * 2,
    showing_items: ids.length,
    total_pages: pages,
    current_page: current,
    previous_page: Math.max(1, current - 1),
    next_page: Math.min(pages, current + 1),
  },
  data: ids.map((id) => ({ id })),
  extra: {},
});
const error = (status: number, code: string) => ({ code, message: code, status_code: status });
const judge = (id: string, exchanges: RecordedExchange[], checkId = 'X-AFTER-REFUSALS') =>
  relationBreaches(
    exchanges.map((exchange) => ({ checkId, exchange })),
    bases,
    [id],
  )[0];

describe('REL-ACCEPTED-AFTER-REFUSALS leaves alone', () => {
  const id = 'REL-ACCEPTED-AFTER-REFUSALS';
  const me = (status: number, body: unknown = status < 300 ? { id: 'u' } : error(status, 'X')) =>
    made('/api/v1/user/me', status, body, BEARER);

  it("an expired session renewed and repeated once (the spec's one end of a token)", () => {
    const renewed = () => [me(200), me(401, error(401, 'SESSION_EXPIRED')), me(200)];
    expect(judge(id, renewed())).toMatchObject({ judged: 1, breaches: [] });
    // The session may expire before the refusals too: the answer after its renewal is the one before.
    expect(judge(id, [me(401, error(401, 'SESSION_EXPIRED')), me(200), me(200)])?.breaches).toEqual([]);
    const accepted = me(200);
    const refused = me(401, error(401, 'INVALID_TOKEN'));
    expect(judge(id, [accepted, refused])?.breaches[0]).toMatchObject({ second: refused });
  });

  it('a 429, a 5xx or a disabled feature after; a route that refused the scheme before and after', () => {
    expect(judge(id, [me(200), me(429), me(503, error(503, 'FEATURE_FLAG_DISABLED'))])?.judged).toBe(0);
    expect(judge(id, [me(403), me(403)])).toMatchObject({ judged: 1, breaches: [] });
  });

  it("any check but one asking again after the refusals (a renewal check's 401 then 200)", () => {
    expect(judge(id, [me(200), me(401, error(401, 'INVALID_TOKEN'))], 'REN-RETRY')?.judged).toBe(0);
  });
});

describe('REL-NEXT-PAGE-FOLLOWED leaves alone', () => {
  const id = 'REL-NEXT-PAGE-FOLLOWED';
  const page = (n: number, ids: string[], headers: Record<string, string> = BEARER, query = `?page=${n}`) =>
    made(`/api/v1/customers${query}`, 200, envelope(n, 3, ids), headers);

  it('the last page (it names itself), and a page asked through the other credential', () => {
    expect(judge(id, [page(3, ['e']), page(3, ['e'])])?.judged).toBe(0);
    expect(judge(id, [page(1, ['a', 'b'], BEARER, ''), page(2, ['a', 'b'], KEY)])?.judged).toBe(0);
  });

  it('judges the page followed: refused, another page, or the same customers again', () => {
    const first = page(1, ['a', 'b'], BEARER, '');
    expect(judge(id, [first, page(2, ['c', 'd'])])).toMatchObject({ judged: 1, breaches: [] });
    const refused = made('/api/v1/customers?page=2', 422, error(422, 'VALIDATION_ERROR'), BEARER);
    expect(judge(id, [first, refused])?.breaches[0]?.problem).toMatch(/names next_page 2, yet GET/);
    const other = made('/api/v1/customers?page=2', 200, envelope(3, 3, ['e']), BEARER);
    expect(judge(id, [first, other])?.breaches[0]?.problem).toMatch(/answers current_page 3/);
  });
});
