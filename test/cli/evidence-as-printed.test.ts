// Evidence that works as printed, end to end: a target whose error bodies name the wrong path
// (fault error-path-wrong). Every "reproduce with" line of every report expands only variables a
// person sets in .env (INV-ERROR-PATH's sent $HIDDEN_X_API_KEY_SECRET, which nothing sets: the
// check's own made-up wrong secret), and ERR-PATH names the exchange that failed (it said "which of
// the 9 exchanges failed is not known").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLES } from '../../common/variables.ts';
import { variablesOf } from '../../src/client/curl.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { readBackHar, readBackResults } from '../../src/report/read-back.ts';
import { stagingThrough } from '../support/forwarding-proxy.ts';
import { type NodeRun, runTs } from '../support/run-node.ts';

let server: RunningReferenceServer;
let dir: string;
let run: NodeRun;
const SETTABLE = new Set([...VARIABLES.map((v) => v.name), 'ACCESS_TOKEN']);

interface Check {
  id: string;
  status: string;
  failedExchange?: number;
  exchanges: { status?: number; url: string }[];
}
let checks: Check[];

beforeAll(async () => {
  server = await startReferenceServer({ faults: ['error-path-wrong'] });
  dir = mkdtempSync(join(tmpdir(), 'evidence-'));
  const origin = new URL(server.apiBaseUrl).origin;
  run = await runTs(
    'src/cli/conformance.ts',
    [
      '--area',
      'errors',
      '--area',
      'api-key',
      '--area',
      'bearer',
      '--area',
      'auth-token',
      '--area',
      'generated',
      '--har',
      join(dir, 'har', 'traffic.har'),
    ],
    { env: { ...stagingThrough(origin, server.credentials, dir), CONFORMANCE_GENERATED: '40' } },
  );
  checks = (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { checks: Check[] }).checks;
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every command line a sink offers ("reproduce with: ..." or the code block after it). */
function commandsIn(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const m = /(curl -i .*|ACCESS_TOKEN=\$\(.*)$/.exec(line.replace(/&#39;/g, "'").replace(/&quot;/g, '"'));
    return m?.[1] ? [m[1]] : [];
  });
}

describe('evidence that works as printed', () => {
  it('the run failed ERR-PATH and INV-ERROR-PATH (so the commands below exist)', () => {
    expect(run.code, run.stdout.slice(-2000)).toBe(1);
    for (const id of ['ERR-PATH', 'INV-ERROR-PATH'])
      expect(checks.find((c) => c.id === id)?.status).toBe('failed');
  });

  it('ERR-PATH names the exchange that failed, an error answer of the route it names', () => {
    const c = checks.find((x) => x.id === 'ERR-PATH');
    expect(c?.failedExchange, JSON.stringify(c?.exchanges.map((x) => x.url))).toBeTypeOf('number');
    const failed = c?.exchanges[c.failedExchange ?? -1];
    expect(failed?.status).toBeGreaterThanOrEqual(400);
    expect(run.stdout).not.toMatch(/is not known/);
    expect(run.stdout).toMatch(/failed ERR-PATH [^\n]*\n {2}exchange #\d+ of \d+ failed: /);
  });

  it('every command of the console, summary.md, junit.xml and index.html expands only variables of .env', () => {
    const sinks = {
      console: run.stdout,
      summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
      junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
      html: readFileSync(join(dir, 'index.html'), 'utf8'),
    };
    for (const [sink, text] of Object.entries(sinks)) {
      const commands = commandsIn(text);
      expect(commands.length, sink).toBeGreaterThan(0);
      for (const command of commands) {
        const unset = variablesOf(command).filter((v) => !SETTABLE.has(v));
        expect(unset, `${sink}: ${command}`).toEqual([]);
      }
      expect(text, sink).not.toContain('HIDDEN_');
    }
  });

  it('the seed of the generated requests and the command that sends them again are in results.json, summary.md and index.html', () => {
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      generation?: { seed: number; budget: number; replay: string };
    };
    const g = results.generation;
    expect(g?.budget).toBe(40);
    expect(g?.replay).toBe(
      `CONFORMANCE_SEED=${g?.seed} CONFORMANCE_GENERATED=40 npm run conformance -- --area errors --area api-key --area bearer --area auth-token --area generated`,
    );
    expect(readBackResults(results).ok).toBe(true);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(g?.replay);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain(
      `seed <strong class="mono">${g?.seed}</strong>`,
    );
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain(g?.replay);
  });

  it('--har writes the exchanges as HAR 1.2: valid by its schema, each entry tagged with its check and rules, no secret', () => {
    const text = readFileSync(join(dir, 'har', 'traffic.har'), 'utf8');
    const har = readBackHar(JSON.parse(text));
    if (!har.ok) throw new Error(har.reason);
    const { entries } = har.value.log;
    expect(har.value.log.version).toBe('1.2');
    expect(entries.length).toBeGreaterThan(100);
    for (const entry of entries) {
      expect(entry._check).toBeTruthy();
      expect(entry._rules.length + (entry._check.startsWith('ALIVE') ? 1 : 0)).toBeGreaterThan(0);
    }
    const failedFor = entries.flatMap((x) => x._failedChecks ?? []);
    expect(failedFor).toEqual(expect.arrayContaining(['ERR-PATH', 'INV-ERROR-PATH']));
    // ERR-PATH judged answers another check sent (shared work): tagged with both, and with ERR-05.
    const errPath = entries.find((x) => x._failedChecks?.includes('ERR-PATH'));
    expect([errPath?._check, ...(errPath?._alsoChecks ?? [])]).toContain('ERR-PATH');
    expect(errPath?._rules).toContain('ERR-05');
    for (const secret of Object.values(server.credentials).filter((v) => /secret/.test(v)))
      expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED]');
    expect(run.stdout).toContain('traffic.har');
  });

  it("INV-ERROR-PATH's command sends the check's made-up wrong secret as it was", () => {
    const line = run.stdout.split('\n').find((_l, i, all) => all[i - 2]?.startsWith('failed INV-ERROR-PATH'));
    expect(line).toMatch(/^ {2}reproduce with: curl -i /);
    expect(line).not.toContain('HIDDEN_');
  });
});
