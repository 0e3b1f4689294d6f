// A k6 load report as the harness writes it, passed and empty, for tests that plant or draw one;
// `over` sets what a test is about.
import type { LoadReport } from '../../load/lib/summary/report.ts';

export function loadReportFixture(over: Partial<LoadReport> & Record<string, unknown> = {}): LoadReport {
  return {
    tool: 'payments-crm-conformance k6 harness',
    script: 'release',
    target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/' },
    finishedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 30_300,
    verdict: 'passed',
    passed: true,
    thresholds: [],
    checks: [],
    metrics: {},
    figures: [],
    verdicts: [],
    notes: [],
    ...over,
  } as LoadReport;
}
