// "What would check it" is the line a person acts on: said whole on the console (no "... [19 more
// characters]"), each cause once when several checks of a rule skip for it (KEY-03 said "the target
// offers no control API" twice), and, for the rate limiter, where its limit can be found (the
// conformance burst is small on purpose; npm run load:rate-limit raises the rate until it answers).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { stagingThrough } from '../support/forwarding-proxy.ts';
import { type NodeRun, runTs } from '../support/run-node.ts';

let server: RunningReferenceServer;
let dir: string;
let run: NodeRun;
let unchecked: { id: string; why: string }[];

beforeAll(async () => {
  // No control API: the pinned-key and limiter checks cannot arrange what they need.
  server = await startReferenceServer({});
  dir = mkdtempSync(join(tmpdir(), 'unchecked-hints-'));
  const origin = new URL(server.apiBaseUrl).origin;
  run = await runTs('src/cli/conformance.ts', ['--area', 'rate-limit', '--area', 'api-key'], {
    // In CI the run writes its HAR by default (reports/run.har): checked below.
    env: { ...stagingThrough(origin, server.credentials, dir), CI: 'true' },
  });
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    coverage: { unchecked: { id: string; why: string }[] };
  };
  unchecked = results.coverage.unchecked;
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const whyOf = (id: string) => unchecked.find((u) => u.id === id)?.why ?? '';

describe('what would check a rule the run did not check', () => {
  it('KEY-03 names each cause once', () => {
    const why = whyOf('KEY-03');
    expect(why, run.stdout.slice(-3000)).toContain('the target offers no control API');
    const clauses = why.split('; ');
    expect(clauses).toEqual([...new Set(clauses)]);
  });

  it('the console says each hint whole, however long', () => {
    for (const u of unchecked) {
      expect(run.stdout, u.id).toContain(`${u.id} (`);
      expect(run.stdout).toContain(u.why);
    }
    expect(run.stdout).not.toMatch(/more characters\]/);
  });

  it('in CI, the run writes its exchanges as HAR beside the reports without being asked', () => {
    const har = JSON.parse(readFileSync(join(dir, 'run.har'), 'utf8')) as {
      log: { entries: { _check: string }[] };
    };
    expect(har.log.entries.some((x) => x._check.startsWith('KEY-'))).toBe(true);
  });

  it('the RATE rules say how large the burst was and where the limit is found', () => {
    for (const id of ['RATE-01', 'RATE-02', 'RATE-05']) {
      const why = whyOf(id);
      expect(why, run.stdout.slice(-3000)).toMatch(/burst \(30 requests, kept small for a conformance run/);
      expect(why).toContain('npm run load:rate-limit');
    }
  });
});
