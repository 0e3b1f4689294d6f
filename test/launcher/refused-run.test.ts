// A run k6 never started (k6 refusing its arguments: `--profiel smoke` is exit 255, `--duration 5s`
// 104) borrows nothing and removes nothing of the previous run. Before: the launcher read the
// previous run's k6-release.json as this run's, deleted its dashboard before k6 started and said
// the run was "listed in the conformance report", the old "passed" standing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeK6, runLoadCli } from '../load/cli-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a load run k6 refuses', () => {
  it('keeps the previous run reports and dashboard, and claims no verdict', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'refused-run-'));
    const k6 = fakeK6();
    dirs.push(reports, k6.dir);
    const previous = `${JSON.stringify({
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
    })}\n`;
    writeFileSync(join(reports, 'k6-release.json'), previous);
    writeFileSync(join(reports, 'k6-release.html'), '<html>previous dashboard</html>');
    const run = await runLoadCli(['release', '--profiel', 'smoke'], {
      K6_REPORT_DIR: reports,
      PATH: [k6.dir, process.env.PATH].join(':'),
      FAKE_K6_EXIT: '255',
    });
    expect(existsSync(k6.argvFile), 'the stand-in k6 ran').toBe(true);
    expect(run.code, run.stderr).not.toBe(0);
    expect(readFileSync(join(reports, 'k6-release.json'), 'utf8')).toBe(previous);
    expect(readFileSync(join(reports, 'k6-release.html'), 'utf8')).toContain('previous dashboard');
    expect(run.stderr).not.toMatch(/listed in the conformance report|passed/);
  }, 120_000);
});
