import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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

function mergeLoad(dirs: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/merge-load.ts', ...dirs], {
    encoding: 'utf8',
  });
}

describe('npm run merge:load', () => {
  it('passes, fails on the union, and is incomplete (exit 3) naming a cut share', () => {
    const root = mkdtempSync(join(tmpdir(), 'merge-load-'));
    const fast = [
      share(root, 'runner-1', Array(100).fill(10), 0),
      share(root, 'runner-2', Array(100).fill(10), 0),
    ];
    expect(mergeLoad(fast).status).toBe(0);
    const slow = share(root, 'runner-3', Array(300).fill(100), 99);
    const failed = mergeLoad([...fast, slow]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/merged verdict: failed/);
    const cut = share(root, 'runner-4', Array(10).fill(10), null, true);
    const incomplete = mergeLoad([...fast, cut, join(root, 'nowhere')]);
    expect(incomplete.status).toBe(3);
    expect(incomplete.stdout).toMatch(/runner-4.*did not end/);
    expect(incomplete.stdout).toMatch(/runner-4.*truncated/);
    expect(incomplete.stdout).toMatch(/nowhere: no runner.json/);
  }, 60_000);
});
