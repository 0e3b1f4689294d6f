// The schemes each route took, read from its acceptance checks, in summary.md and index.html.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { routeSchemesOf } from '../../src/report/route-schemes.ts';
import { renderSummary } from '../../src/report/summary-md.ts';
import type { CheckResult } from '../../src/report/types.ts';
import { FIXTURE_CHECKS, fixtureResults } from './fixture.ts';

const base = FIXTURE_CHECKS[0] as CheckResult;
const acceptance = (
  id: string,
  title: string,
  status: CheckResult['status'],
  reason?: string,
): CheckResult => ({ ...base, id, title, status, ...(reason ? { reason } : { reason: undefined }) });

const CHECKS = [
  acceptance('KEY-ACCEPT-listCustomers', 'GET /v1/customers accepts the API key', 'passed'),
  acceptance(
    'BEA-ACCEPT-listCustomers',
    'GET /v1/customers accepts a bearer token',
    'skipped',
    "not this route's scheme here: GET /v1/customers refused the bearer token with 403 and the error body",
  ),
  acceptance(
    'BEA-ACCEPT-getCurrentUser',
    'GET /v1/user/me accepts a bearer token',
    'failed',
    'expected 200, got 500',
  ),
  acceptance(
    'KEY-ACCEPT-getFeatureFlags',
    'GET /v1/feature-flags accepts the API key',
    'skipped',
    'no API key',
  ),
];

describe('routeSchemesOf', () => {
  it('gives each route the state of each scheme it lists, and why one was not taken', () => {
    expect(routeSchemesOf(CHECKS)).toEqual([
      {
        route: 'GET /v1/customers',
        apiKey: { state: 'took' },
        bearer: {
          state: 'refused',
          detail: 'GET /v1/customers refused the bearer token with 403 and the error body',
        },
      },
      { route: 'GET /v1/user/me', bearer: { state: 'failed', detail: 'expected 200, got 500' } },
      { route: 'GET /v1/feature-flags', apiKey: { state: 'not run', detail: 'no API key' } },
    ]);
  });

  it('is empty for a run without acceptance checks', () => {
    expect(routeSchemesOf(FIXTURE_CHECKS.filter((c) => !/^(KEY|BEA)-ACCEPT-/.test(c.id)))).toEqual([]);
  });
});

describe('the reports', () => {
  const results = fixtureResults({ checks: CHECKS });

  it('summary.md has a table of the schemes each route took', () => {
    const md = renderSummary(results);
    expect(md).toContain('## Schemes each route took');
    expect(md).toContain(
      '| GET /v1/customers | took | refused (GET /v1/customers refused the bearer token with 403 and the error body) |',
    );
    expect(md).toContain('| GET /v1/user/me | - | failed (expected 200, got 500) |');
  });

  it('index.html shows the same table', () => {
    const html = renderHtml(results);
    expect(html).toContain('<h2>Schemes each route took</h2>');
    expect(html).toMatch(/GET \/v1\/customers<\/td><td><span class="text-status passed">took<\/span>/);
    expect(html).toContain('<span class="text-status skipped">refused</span>');
  });
});
