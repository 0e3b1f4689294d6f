// A conformant server whose flags never change, watched in real time: nothing can be concluded about
// the cache, so FLG-WINDOW and FLG-RENEW are skipped as inconclusive, saying how to make them
// conclusive, and never passed. With slow checks off they are skipped before any waiting.
import { expect, it } from 'vitest';
import { explain, watchRun } from './flag-watch-run.ts';

it('is inconclusive, never passed, when the flags never change', async () => {
  const run = await watchRun({});
  for (const id of ['FLG-WINDOW', 'FLG-RENEW']) {
    const check = run.checks.get(id);
    expect(check?.status, `${id}\n${explain(run)}`).toBe('skipped');
    expect(check?.reason, id).toMatch(/^inconclusive: the flag data never changed/);
    // Two 3 s windows and a little more: 8 s planned, more on a busy machine.
    expect(Number(/watched (\d+) s in real time/.exec(check?.reason ?? '')?.[1]), id).toBeGreaterThanOrEqual(
      8,
    );
    expect(check?.reason, id).toMatch(
      /switch a flag in this environment during the run.*or run the k6 probe for longer/,
    );
  }
  // The rest of the area ran meanwhile, against the same server.
  expect(run.checks.get('FLG-READ')?.status).toBe('passed');
  expect(run.checks.get('FLG-DISABLED-STATUS')?.status).toBe('passed');
  expect(run.code, explain(run)).toBe(0);
}, 300_000);

it('skips them with the reason, without waiting, when slow checks are off', async () => {
  const run = await watchRun({ slow: false });
  for (const id of ['FLG-WINDOW', 'FLG-RENEW']) {
    const check = run.checks.get(id);
    expect(check?.status, `${id}\n${explain(run)}`).toBe('skipped');
    expect(check?.reason, id).toMatch(
      /watching the flag cache in real time \(8 s\).*slow checks are off \(CONFORMANCE_SLOW=0\)/,
    );
    expect(check?.exchanges, id).toEqual([]);
  }
  expect(run.stdout).not.toMatch(/watching GET \/v1\/feature-flags/);
}, 300_000);
