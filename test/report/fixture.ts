// A fixed set of check results for the report tests: MUST failures, a SHOULD soft failure, skips,
// unicode, a 1 MB body, "</script>" in a body, and secrets planted where only a leak would put
// them (the reports must scrub them all).
import type { RecordedExchange } from '../../src/client/index.ts';
import { buildResults, type ResultsInput } from '../../src/report/results.ts';
import type { CheckResult, ConformanceResults } from '../../src/report/types.ts';
import { RULES } from '../../src/rules/catalogue.ts';

export const SECRETS = {
  clientSecret: 'fixture-client-secret-5b1d&<x>"q',
  apiKeySecret: 'fixture-api-key-secret-77c2',
  pinnedSecret: 'fixture-pinned-secret-a9e0',
} as const;
export const SECRET_LIST: string[] = Object.values(SECRETS);

export const HUGE_BODY = `{"blob":"${'x'.repeat(1024 * 1024)}"}`;
export const SCRIPT_BODY =
  '{"note":"</script><script>window.__pwned = 1</script><img src=x onerror=alert(1)>"}';
export const UNICODE_TITLE = 'naïve pagination — ünïcödé ✓ 日本語 🚀';

function exchange(over: Partial<RecordedExchange> = {}): RecordedExchange {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:4010/api/v1/customers?page=2',
    requestHeaders: { 'x-api-key-id': 'local-api-key', 'x-api-key-secret': '[REDACTED]' },
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{"pagination":{"showing_items":3},"data":[1,2]}',
    startedAt: '2026-01-05T10:00:01.000Z',
    durationMs: 12.5,
    ...over,
  };
}

const check = (over: Partial<CheckResult> & Pick<CheckResult, 'id' | 'area' | 'rules'>): CheckResult => ({
  title: `title of ${over.id}`,
  level: 'MUST',
  status: 'passed',
  durationMs: 20,
  exchanges: [exchange()],
  ...over,
});

export const FIXTURE_CHECKS: CheckResult[] = [
  check({ id: 'TOK-VALID', area: 'auth-token', rules: ['TOK-01', 'TOK-02'] }),
  check({
    id: 'TOK-WRONG',
    area: 'auth-token',
    rules: ['TOK-03'],
    status: 'failed',
    // A leak the reporter must stop: the secret in a message and in a recorded body.
    reason: `expected 401, got 200 for client_secret=${SECRETS.clientSecret}`,
    exchanges: [
      exchange({
        method: 'POST',
        url: 'http://127.0.0.1:4010/api/v1/auth/token',
        requestBody: `{"client_id":"c","client_secret":"${SECRETS.clientSecret}"}`,
        responseBody: `{"echo":"${SECRETS.apiKeySecret}","pinned":"${SECRETS.pinnedSecret}"}`,
      }),
    ],
  }),
  check({
    id: 'PAG-SHOWING',
    area: 'customers-pagination',
    title: UNICODE_TITLE,
    rules: ['PAG-03'],
    status: 'failed',
    reason: 'showing_items is 3 but the page holds 2 items — «données» ✗',
    exchanges: [exchange({ responseBody: SCRIPT_BODY }), exchange({ responseBody: HUGE_BODY })],
  }),
  check({ id: 'PAG-EDGES', area: 'customers-pagination', rules: ['PAG-04', 'PAG-05'] }),
  check({
    id: 'PAG-MALFORMED',
    area: 'customers-pagination',
    rules: ['PAG-13'],
    level: 'ADVICE',
    status: 'failed',
    nonStrict: true,
    reason: 'page=abc answered 500, a 4xx was expected',
  }),
  check({
    id: 'FLG-WINDOW',
    area: 'feature-flags',
    rules: ['FLG-02'],
    status: 'skipped',
    reason: 'the target offers no control API; moving the clock needs it',
    exchanges: [],
  }),
  check({ id: 'FLG-FRESH', area: 'feature-flags', rules: ['FLG-03'], status: 'passed' }),
];

export const FIXTURE_AREAS = [
  'auth-token',
  'customers-pagination',
  'feature-flags',
  'token-renewal',
] as const;

export function fixtureInput(over: Partial<ResultsInput> = {}): ResultsInput {
  const coverage = new Map<string, string[]>();
  for (const c of FIXTURE_CHECKS)
    for (const r of c.rules) coverage.set(r, [...(coverage.get(r) ?? []), c.id]);
  return {
    tool: { name: 'payments-crm-conformance', version: '0.1.0' },
    target: {
      name: 'staging',
      apiBaseUrl: 'https://staging.example.test/api/',
      petstoreBaseUrl: 'https://pets.example.test/v1',
    },
    startedAt: new Date('2026-01-05T10:00:00.000Z'),
    finishedAt: new Date('2026-01-05T10:00:42.500Z'),
    strict: false,
    checks: FIXTURE_CHECKS,
    coverage,
    areas: [...FIXTURE_AREAS],
    filtered: false,
    problems: [],
    ...over,
  };
}

export function fixtureResults(over: Partial<ResultsInput> = {}): ConformanceResults {
  return buildResults(fixtureInput(over));
}

/** Rules of the fixture's areas that no fixture check names. */
export const FIXTURE_UNCOVERED = RULES.filter(
  (r) =>
    (FIXTURE_AREAS as readonly string[]).includes(r.area) &&
    r.scope !== 'client' &&
    !FIXTURE_CHECKS.some((c) => c.rules.includes(r.id)),
).map((r) => r.id);
