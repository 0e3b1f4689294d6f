import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadReport } from '../../load/lib/summary/report.ts';

const thresholds = { 'http_req_duration{endpoint:customers}': ['p(95)<50'] };

function share(
  root: string,
  name: string,
  durations: number[],
  exitCode: number | null,
  cut = false,
): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'runner.json'), JSON.stringify({ name, segment: '0:1', exitCode, thresholds }));
  let text = durations
    .map(
      (value) =>
        `${JSON.stringify({ type: 'Point', metric: 'http_req_duration', data: { value, tags: { endpoint: 'customers' } } })}\n`,
    )
    .join('');
  if (cut) text = text.slice(0, -10);
  writeFileSync(join(dir, 'samples.jsonl'), text);
  return dir;
}

const reportDir = mkdtempSync(join(tmpdir(), 'merge-load-reports-'));

function mergeLoad(dirs: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/merge-load.ts', ...dirs], {
    encoding: 'utf8',
    env: { ...process.env, K6_REPORT_DIR: reportDir },
  });
}

const written = () => JSON.parse(readFileSync(join(reportDir, 'k6-release.json'), 'utf8')) as LoadReport;

describe('npm run merge:load', () => {
  it('passes, fails on the union, and is incomplete (exit 3) naming a cut share', () => {
    const root = mkdtempSync(join(tmpdir(), 'merge-load-'));
    const fast = [
      share(root, 'runner-1', Array(100).fill(10), 0),
      share(root, 'runner-2', Array(100).fill(10), 0),
    ];
    expect(mergeLoad(fast).status).toBe(0);
    expect(written()).toMatchObject({ verdict: 'passed', script: 'release' });
    const slow = share(root, 'runner-3', Array(300).fill(100), 99);
    const failed = mergeLoad([...fast, slow]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/merged verdict: failed/);
    // The report the merge wrote says so too, with the union's p95 beside the threshold.
    expect(written().verdict).toBe('failed');
    expect(written().metrics['http_req_duration{endpoint:customers}']?.values['p(95)']).toBe(100);
    const cut = share(root, 'runner-4', Array(10).fill(10), null, true);
    const incomplete = mergeLoad([...fast, cut, join(root, 'nowhere')]);
    expect(incomplete.status).toBe(3);
    expect(incomplete.stdout).toMatch(/runner-4.*did not end/);
    expect(incomplete.stdout).toMatch(/runner-4.*truncated/);
    expect(incomplete.stdout).toMatch(/nowhere: no runner.json/);
    const report = written();
    expect(report.verdict).toBe('incomplete');
    expect(report.verdictReason).toMatch(/runner-4/);
    expect(readFileSync(join(reportDir, 'k6-release.junit.xml'), 'utf8')).toMatch(/incomplete: .*runner-4/);
  }, 60_000);
});
