// The invariants over every exchange: each one holds on a conformant answer, breaks on the answer
// that breaks its rule (naming the check that sent it), and leaves alone what the spec does not
// govern (the pet operations' errors, a page the request did not state exactly).
import { describe, expect, it } from 'vitest';
import { invariantResults, judgeInvariants } from '../../src/checks/invariants.ts';
import { createRecorder, type RecordedExchange } from '../../src/client/index.ts';

const bases = {
  apiBaseUrl: 'http://127.0.0.1:4010/api/',
  petstoreBaseUrl: 'http://127.0.0.1:4010/petstore/v1',
};
let clock = 0;

function exchange(
  method: string,
  path: string,
  status: number,
  body: unknown,
  extra: Partial<RecordedExchange> = {},
) {
  return {
    method,
    url: `http://127.0.0.1:4010${path}`,
    requestHeaders: {},
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: typeof body === 'string' ? body : JSON.stringify(body),
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString(),
    durationMs: 1,
    ...extra,
  } satisfies RecordedExchange;
}

const error = (status: number, path: string, over: Record<string, unknown> = {}) => ({
  id: 'req_1',
  code: 'X',
  message: 'm',
  status_code: status,
  timestamp: '2026-01-01T00:00:00Z',
  path,
  handled: true,
  errors: [],
  ...over,
});

const page = (current: number, over: Record<string, number> = {}, items = 50) => ({
  pagination: {
    total_items: 137,
    showing_items: items,
    total_pages: 3,
    current_page: current,
    previous_page: current === 1 ? 1 : current - 1,
    next_page: current === 3 ? 3 : current + 1,
    ...over,
  },
  data: Array.from({ length: items }, (_, i) => ({ id: `c${current}-${i}` })),
  extra: {},
});

const verdictOf = (id: string, seen: RecordedExchange[]) =>
  judgeInvariants(
    seen.map((exchange) => ({ checkId: 'CHK-1', exchange })),
    bases,
  ).find((v) => v.id === id);

describe('invariants over every exchange', () => {
  const clean = [
    exchange('GET', '/api/v1/user/me', 401, error(401, '/api/v1/user/me', { code: 'SESSION_EXPIRED' })),
    exchange('GET', '/api/v1/customers?page=2', 200, page(2)),
    exchange('GET', '/api/v1/customers', 200, page(1)),
    exchange('GET', '/api/v1/customers?page=3', 200, page(3, {}, 37)),
  ];

  it('every invariant holds on conformant answers', () => {
    const verdicts = judgeInvariants(
      clean.map((exchange) => ({ checkId: 'CHK-1', exchange })),
      bases,
    );
    const failed = verdicts.filter((v) => v.status === 'failed');
    expect(failed.map((v) => `${v.id}: ${v.reason}`)).toEqual([]);
    expect(verdicts.find((v) => v.id === 'INV-ERROR-STATUS-CODE')?.status).toBe('passed');
    expect(verdicts.find((v) => v.id === 'INV-PAGE-NEXT')?.judged).toBe(3);
  });

  it('status_code is judged on every error, a SESSION_EXPIRED one too, naming the check and exchange', () => {
    const broken = exchange(
      'GET',
      '/api/v1/user/me',
      401,
      error(400, '/api/v1/user/me', { code: 'SESSION_EXPIRED' }),
    );
    const v = verdictOf('INV-ERROR-STATUS-CODE', [...clean, broken]);
    expect(v?.status).toBe('failed');
    expect(v?.reason).toBe('status_code is 400, HTTP 401: GET /api/v1/user/me -> 401, sent by CHK-1');
    expect(v?.breaches[0]?.exchange).toBe(broken);
  });

  it.each([
    ['INV-ERROR-MESSAGE', error(429, '/api/v1/customers', { message: undefined })],
    ['INV-ERROR-FIELDS', error(429, '/api/v1/customers', { handled: 'yes' })],
    ['INV-ERROR-TIMESTAMP', error(429, '/api/v1/customers', { timestamp: '01/01/2026 10:00' })],
    ['INV-ERROR-PATH', error(429, '/api/v1/user/me')],
    ['INV-ERROR-ERRORS', error(429, '/api/v1/customers', { errors: 'see message' })],
    ['INV-ERROR-ERRORS', error(429, '/api/v1/customers', { errors: [1] })],
    ['INV-ERROR-ERRORS-SEVERAL', error(429, '/api/v1/customers', { errors: ['not the message'] })],
  ])('%s breaks on an error body that breaks its rule', (id, body) => {
    expect(verdictOf(id, [exchange('GET', '/api/v1/customers', 429, body)])?.status).toBe('failed');
  });

  // "errors | filled when the error has several messages": a list of one is not several.
  it('a one-entry errors that is not the message breaks ERR-08; empty, absent, the message itself and two entries hold; a non-array is left to ERR-06', () => {
    const judged = (over: Record<string, unknown>) =>
      verdictOf('INV-ERROR-ERRORS-SEVERAL', [
        exchange('GET', '/api/v1/customers', 429, error(429, '/api/v1/customers', over)),
      ]);
    const one = judged({ errors: ['Stryker was here'] });
    expect(one?.status).toBe('failed');
    expect(one?.reason).toBe(
      'errors is ["Stryker was here"]: one entry, not several messages, and not the message "m": GET /api/v1/customers -> 429, sent by CHK-1',
    );
    expect(judged({ errors: ['X'] })?.status).toBe('failed');
    // The message restated as a list of one (a server written from the spec alone answers so).
    expect(judged({ errors: ['m'] })?.status).toBe('passed');
    expect(judged({ errors: [] })?.status).toBe('passed');
    expect(judged({ errors: undefined })?.status).toBe('passed');
    expect(judged({ errors: ['page is not an integer', 'limit is not an integer'] })?.status).toBe('passed');
    expect(judged({ errors: 'see message' })?.status).toBe('passed');
    expect(judged({ errors: [1] })?.status).toBe('passed');
    // The demo pet operations' errors are not shown: a list of one there is not judged.
    const pet = exchange(
      'POST',
      '/petstore/v1/pets',
      400,
      error(400, '/petstore/v1/pets', { errors: ['x'] }),
    );
    expect(verdictOf('INV-ERROR-ERRORS-SEVERAL', [pet])?.judged).toBe(0);
  });

  it('an error that is not JSON breaks ERR-07; a pet error is not governed', () => {
    const text = exchange('GET', '/api/v1/customers', 503, 'down', {
      responseHeaders: { 'content-type': 'text/plain' },
    });
    expect(verdictOf('INV-ERROR-JSON', [text])?.status).toBe('failed');
    const pet = exchange('GET', '/petstore/v1/pets/x', 400, 'bad', {
      responseHeaders: { 'content-type': 'text/plain' },
    });
    expect(verdictOf('INV-ERROR-JSON', [pet])?.status).toBe('skipped');
    expect(verdictOf('INV-ERROR-MESSAGE', [pet])?.judged).toBe(0);
  });

  it.each([
    ['INV-PAGE-INTEGERS', page(2, { total_items: '137' as unknown as number })],
    ['INV-PAGE-SHOWING', page(2, { showing_items: 51 })],
    ['INV-PAGE-TOTAL-ITEMS', page(2, { total_items: 20 })],
    ['INV-PAGE-TOTAL-PAGES', page(2, { total_pages: 4 })],
    ['INV-PAGE-CURRENT', page(2, { current_page: 1 })],
    ['INV-PAGE-PREVIOUS', page(2, { previous_page: 2 })],
    ['INV-PAGE-NEXT', page(2, { next_page: 2 })],
  ])('%s breaks on a page that breaks its rule', (id, body) => {
    expect(verdictOf(id, [exchange('GET', '/api/v1/customers?page=2', 200, body)])?.status).toBe('failed');
  });

  it('a page the request did not state exactly is not compared with current_page', () => {
    const odd = exchange('GET', '/api/v1/customers?page=02', 200, page(2));
    expect(verdictOf('INV-PAGE-CURRENT', [odd])?.judged).toBe(0);
    const wrapped = exchange('GET', `/api/v1/customers?page=${2 ** 32 + 1}`, 200, page(1));
    expect(verdictOf('INV-PAGE-CURRENT', [wrapped])?.status).toBe('failed');
  });

  it("a 2xx is judged against its operation's schema", () => {
    const array = exchange('GET', '/api/v1/user/me', 200, [{ id: 'u' }]);
    expect(verdictOf('INV-2XX-SCHEMA', [array])?.status).toBe('failed');
    const pets = exchange('GET', '/petstore/v1/pets', 200, [{ id: 1, name: 'a', status: 'sold' }]);
    expect(verdictOf('INV-2XX-SCHEMA', [pets])?.status).toBe('passed');
  });

  it('an exchange attached to several checks is judged once', () => {
    const shared = exchange('GET', '/api/v1/customers?page=2', 200, page(2, { next_page: 9 }));
    const verdict = judgeInvariants(
      [
        { checkId: 'A', exchange: shared },
        { checkId: 'B', exchange: { ...shared } },
      ],
      bases,
    ).find((v) => v.id === 'INV-PAGE-NEXT');
    expect(verdict?.judged).toBe(1);
  });

  it('as check records: a failure holds the breaking exchange; what the run never touched is left out', () => {
    const broken = exchange('GET', '/api/v1/customers?page=2', 200, page(2, { previous_page: 0 }));
    const results = invariantResults(
      [{ id: 'PAG-X', rules: ['PAG-03'], area: 'customers-pagination', exchanges: [broken] }],
      bases,
      false,
    );
    const previous = results.find((r) => r.id === 'INV-PAGE-PREVIOUS');
    expect(previous).toMatchObject({
      status: 'failed',
      rules: ['PAG-07'],
      failedExchange: 0,
      exchanges: [broken],
    });
    expect(results.find((r) => r.id === 'INV-ERROR-MESSAGE')).toBeUndefined();
    const soft = invariantResults(
      [
        {
          id: 'E',
          rules: ['ERR-01'],
          area: 'errors',
          exchanges: [exchange('GET', '/api/v1/x', 404, error(404, '/api/v1/x', { code: 'NOT_FOUND' }))],
        },
        {
          id: 'P',
          rules: ['PET-11'],
          area: 'pets',
          exchanges: [exchange('GET', '/petstore/v1/pets/x', 404, 'no')],
        },
      ],
      bases,
      true,
    );
    // Absent errors is the spec's ("filled when the error has several messages").
    expect(soft.find((r) => r.id === 'INV-ERROR-ERRORS')).toMatchObject({ status: 'passed', level: 'MUST' });
  });

  it("the setup diagnosis's requests are judged too, their breach reported whatever the selection", () => {
    const cold = exchange('GET', '/petstore/v1/pets?limit=1', 500, { message: 'warming up' });
    const served = exchange('GET', '/api/v1/customers', 200, page(1));
    const checks = [
      { id: 'PAG-X', rules: ['PAG-03'], area: 'customers-pagination' as const, exchanges: [served] },
    ];
    // A filtered run (one check selected): GNR-01 is no rule of it, yet the 5xx is reported.
    const results = invariantResults(checks, bases, false, true, [cold]);
    expect(results.find((r) => r.id === 'INV-NO-5XX')).toMatchObject({
      status: 'failed',
      exchanges: [cold],
      reason: expect.stringMatching(/-> 500, sent by the setup diagnosis \(before the checks\)$/),
    });
    // Without its breach, the same filtered run leaves the invariant out, as before.
    const ok = exchange('GET', '/petstore/v1/pets?limit=1', 200, []);
    expect(
      invariantResults(checks, bases, false, true, [ok]).find((r) => r.id === 'INV-NO-5XX'),
    ).toBeUndefined();
  });
});

describe('secrets in answers, judged before redaction', () => {
  const named = [
    { name: 'CLIENT_SECRET', value: 'client-secret-123456' },
    { name: 'API_KEY_SECRET', value: 'key-secret-abcdef' },
  ];
  const raw = (url: string, body: string, method = 'GET'): RecordedExchange => ({
    method,
    url,
    requestHeaders: {},
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: body,
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 1,
  });

  it('names the variable of an echoed secret, never its value, and redacts it as before', () => {
    const recorder = createRecorder(named.map((n) => n.value));
    for (const n of named) recorder.learn(n.value, n.name);
    recorder.record(
      raw('http://h/api/v1/auth/token', '{"access_token":"t","echo":"client-secret-123456"}', 'POST'),
    );
    const [kept] = recorder.exchanges();
    expect(kept?.leaked).toEqual(['CLIENT_SECRET']);
    expect(JSON.stringify(kept)).not.toContain('client-secret-123456');
    const v = verdictOf('INV-NO-SECRETS', [
      { ...(kept as RecordedExchange), url: 'http://127.0.0.1:4010/api/v1/auth/token' },
    ]);
    expect(v?.reason).toContain('carries CLIENT_SECRET');
  });

  it('a token outside the token answer is a leak; the token answer itself is not', () => {
    const recorder = createRecorder([]);
    for (const n of named) recorder.learn(n.value, n.name);
    recorder.record(raw('http://h/api/v1/auth/token', '{"access_token":"tok-0123456789"}', 'POST'));
    recorder.learn('tok-0123456789', 'ACCESS_TOKEN');
    recorder.record(raw('http://h/api/v1/user/me', '{"id":"u","seen":"tok-0123456789"}'));
    recorder.record(raw('http://h/api/v1/user/me', '{"id":"u","refresh_token":"other"}'));
    recorder.record(raw('http://h/api/v1/user/me', '{"id":"u"}'));
    expect(recorder.exchanges().map((e) => e.leaked)).toEqual([
      undefined,
      ['an access token the run obtained'],
      ['a token field (refresh_token)'],
      undefined,
    ]);
  });
});

describe('an invariant over its time budget', () => {
  it('fails with the reason and the run goes on: never a stalled run, never passed', () => {
    const seen = Array.from({ length: 10 }, (_, i) =>
      exchange('GET', `/api/v1/customers?page=${(i % 3) + 1}`, 200, page((i % 3) + 1)),
    ).map((e, i) => ({ checkId: 'CHK-1', exchange: { ...e, startedAt: `2026-01-01T00:00:0${i}.000Z` } }));
    // A virtual clock: each reading is 10 s later than the one before.
    let t = 0;
    const verdicts = judgeInvariants(seen, bases, { budgetMs: 25_000, now: () => (t += 10_000) });
    const next = verdicts.find((v) => v.id === 'INV-PAGE-NEXT');
    expect(next?.status).toBe('failed');
    expect(next?.reason).toMatch(/^not judged: it ran over its 25 s budget after \d of 10 answers/);
  });
});

describe('the exchange an invariant shows first', () => {
  it('is one whose command runs as printed: a request with a hidden value (a near miss of a secret) comes after', () => {
    const hidden = exchange('GET', '/api/v1/customers', 401, error(401, '/'), {
      replay: {
        method: 'GET',
        url: ['http://127.0.0.1:4010/api/v1/customers'],
        headers: [['x-api-key-secret', [{ variable: 'HIDDEN_X_API_KEY_SECRET' }]]],
      },
    });
    const plain = exchange('GET', '/api/v1/customers', 401, error(401, '/'));
    const [verdict] = judgeInvariants(
      [
        { checkId: 'KEY-NEAR-MISS', exchange: hidden },
        { checkId: 'ERR-MESSAGE', exchange: plain },
      ],
      bases,
    ).filter((v) => v.id === 'INV-ERROR-PATH');
    expect(verdict?.status).toBe('failed');
    expect(verdict?.breaches.map((b) => b.checkId)).toEqual(['ERR-MESSAGE', 'KEY-NEAR-MISS']);
    expect(verdict?.reason).toContain('sent by ERR-MESSAGE (and 1 more of 2 answers)');
  });
});

describe('the verdicts of one finished run', () => {
  it('are judged once for the reporters that ask in turn, and again once an exchange list changes', () => {
    const good = exchange('GET', '/api/v1/customers?page=2', 200, page(2));
    const exchanges: RecordedExchange[] = [good];
    const checks = [{ id: 'PAG-X', rules: ['PAG-07'], area: 'customers-pagination' as const, exchanges }];
    const first = invariantResults(checks, bases, false);
    const again = invariantResults(
      checks.map((c) => ({ ...c })),
      bases,
      true,
    );
    expect(again).toEqual(first);
    expect(first.find((r) => r.id === 'INV-PAGE-PREVIOUS')?.status).toBe('passed');
    // The same list, one exchange longer: judged anew.
    const broken = exchange('GET', '/api/v1/customers?page=3', 200, page(3, { previous_page: 0 }));
    exchanges.push(broken);
    const later = invariantResults(checks, bases, false);
    expect(later.find((r) => r.id === 'INV-PAGE-PREVIOUS')).toMatchObject({
      status: 'failed',
      exchanges: [broken],
    });
    // Another target's bases: judged anew (nothing there is located).
    const elsewhere = invariantResults(
      checks,
      { apiBaseUrl: 'http://127.0.0.1:9/api/', petstoreBaseUrl: 'http://127.0.0.1:9/petstore/v1' },
      false,
    );
    expect(elsewhere.find((r) => r.id === 'INV-PAGE-PREVIOUS')?.status).not.toBe('failed');
  });
});
