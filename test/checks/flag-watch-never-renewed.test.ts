// Fault flags-never-renewed (data cached forever) watched in real time: the feature of
// GET /v1/reports is switched off once the watch has seen it on for a window; the route answers 503
// FEATURE_FLAG_DISABLED for longer than a window, yet the flag data stays the same, so FLG-RENEW
// fails (or, on a starved machine, is inconclusive: never passed). FLG-WINDOW, with no change of
// the data at all, proves nothing and is skipped.
import { expect, it } from 'vitest';
import { explain, watchRun } from './flag-watch-run.ts';

it('fails the renewal of a server that never renews once a flag changed', async () => {
  const run = await watchRun({ faults: ['flags-never-renewed'], flipGuardedFeature: true });
  expect(run.flippedAfterMs, 'the test switched the reports feature').toBeDefined();
  const renew = run.checks.get('FLG-RENEW');
  // In real time a starved machine may see the switch too late to judge: inconclusive, never passed.
  // The verdict itself is proven on a virtual clock (flag-watch.test.ts).
  if (renew?.status === 'skipped') expect(renew.reason, explain(run)).toMatch(/^inconclusive/);
  else {
    expect(renew?.status, explain(run)).toBe('failed');
    expect(renew?.reason).toMatch(
      /GET \/v1\/reports showed its feature enabled from .* and disabled from .*, yet GET \/v1\/feature-flags answered the same data/,
    );
    expect(run.code).toBe(1);
  }
  expect(run.checks.get('FLG-WINDOW')?.status).toBe('skipped');
}, 300_000);
