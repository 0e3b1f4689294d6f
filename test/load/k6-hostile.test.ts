// The k6 scripts against a hostile target, with real k6 (issue 22): a target that redirects to
// another loopback address (a listener on 127.0.0.2 recording every header and body) or to the same
// host on another port, answers the token route with a 307, or sends huge or endless bodies, and
// echoes every secret it receives and sets cookies on every answer. For each: nothing reaches the
// listener, no cookie comes back, no fragment of a secret (8 characters or more) appears in any
// output, and the exit code and the report's verdict tell what happened. Memory against the big and
// endless bodies is measured by `npm run bench:k6-memory` (benchmarks print figures; tests do not time).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redirectCheckName } from '../../load/lib/bounded.ts';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import type { LoadScriptName } from '../../src/launcher/scripts.ts';
import { type Listener, startListener } from '../cli/hostile-listener.ts';
import { ROOT } from './cli-run.ts';
import { type K6HostileKind, type K6HostileTarget, startK6HostileTarget } from './hostile-api.ts';
import { type K6Run, k6, k6RunFile, MISSING_K6, noK6, removeReportDirs, reports, runK6At } from './k6-run.ts';

afterAll(removeReportDirs);

const CLIENT_SECRET = 'k6-hostile-client-secret-4c1d9e';
/** runK6At's API key secret. */
const API_KEY_SECRET = 'independent-server-secret';

interface HostileRun {
  run: K6Run;
  target: K6HostileTarget;
  listener: Listener;
  written: string;
}

/** Every 8-character piece of every secret found in the text (none expected). */
function secretFragments(text: string, secrets: string[]): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8);
      if (text.includes(piece)) found.push(piece);
    }
  }
  return found;
}

async function hostileRun(
  kind: K6HostileKind,
  script: LoadScriptName,
  variables: Record<string, string>,
  listenerHost = '127.0.0.2',
): Promise<HostileRun> {
  const listener = await startListener(listenerHost);
  const target = await startK6HostileTarget(kind, {
    elsewhere: listener.origin,
    hugeBytes: 50 * 1024 * 1024,
  });
  try {
    const run = await runK6At(script, target.apiBaseUrl, {
      CLIENT_ID: 'k6-hostile-client',
      CLIENT_SECRET,
      PETSTORE_BASE_URL: target.petstoreBaseUrl,
      REQUEST_TIMEOUT_MS: '2000',
      LOAD_PROFILE: 'smoke',
      RELEASE_VUS: '2',
      RELEASE_DURATION: '3s',
      RELEASE_THINK_TIME: '0.2s',
      RATE_BUDGET: '5s',
      ...variables,
    });
    const files = readdirSync(run.reportDir).map((name) => readFileSync(join(run.reportDir, name), 'utf8'));
    return { run, target, listener, written: [run.output, ...files].join('\n') };
  } finally {
    await target.close();
    await listener.close();
  }
}

function expectNothingLeaked(h: HostileRun): void {
  expect(h.listener.heard, 'requests that reached the listener').toEqual([]);
  expect(h.target.cookiesReturned(), 'requests that sent a cookie back').toBe(0);
  const secrets = [CLIENT_SECRET, API_KEY_SECRET, ...h.target.issuedTokens];
  expect(secretFragments(h.written, secrets), 'secret fragments in the output and reports').toEqual([]);
  expect(h.run.output, 'no stack trace').not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

function report(h: HostileRun, script: string): LoadReport {
  return reports(h.run, script).json;
}

describe.skipIf(noK6)(
  'k6 against a hostile target (real k6; skipped only where neither k6 nor Go is installed)',
  {
    timeout: 120_000,
  },
  () => {
    beforeAll(() => {
      if (!k6) throw new Error(MISSING_K6);
    });

    for (const [kind, host] of [
      ['redirect-other-address', '127.0.0.2'],
      ['redirect-other-port', '127.0.0.1'],
    ] as const) {
      it(`${kind}: release follows no redirect, fails naming only the Location's origin`, async () => {
        const h = await hostileRun(kind, 'release', {}, host);
        expectNothingLeaked(h);
        expect(h.target.requests(), 'the target itself was reached').toBeGreaterThan(0);
        expect(h.run.code, h.run.output.slice(-1500)).toBe(99);
        const json = report(h, 'release');
        expect(json.verdict).toBe('failed');
        const name = redirectCheckName(302, h.listener.origin);
        const finding = json.checks.find((c) => c.name === name);
        expect(finding, JSON.stringify(json.checks)).toBeDefined();
        expect(finding?.fails).toBeGreaterThan(0);
        expect(json.thresholds.find((t) => t.metric === 'load_redirects_not_followed')?.ok).toBe(false);
      });

      it(`${kind}: the rate-limit probe sends its API key nowhere else and does not count the redirects as answers`, async () => {
        const h = await hostileRun(kind, 'rate-limit', {}, host);
        expectNothingLeaked(h);
        expect(h.run.code, h.run.output.slice(-1500)).toBe(99);
        const json = report(h, 'rate-limit');
        expect(json.verdict).toBe('failed');
        expect(json.checks.some((c) => c.name === redirectCheckName(302, h.listener.origin))).toBe(true);
      });
    }

    it('redirect-other-address: the flag-cache probe follows no redirect either, and fails naming the origin', async () => {
      const h = await hostileRun('redirect-other-address', 'flag-cache', {
        FLAG_DURATION: '3s',
        FLAG_VUS: '2',
        FLAG_POLL_INTERVAL: '1s',
      });
      expectNothingLeaked(h);
      expect(h.run.code, h.run.output.slice(-1500)).toBe(99);
      const json = report(h, 'flag-cache');
      expect(json.verdict).toBe('failed');
      expect(json.checks.some((c) => c.name === redirectCheckName(302, h.listener.origin))).toBe(true);
    });

    it('token-307: the client secret is not posted elsewhere and no token from elsewhere is used', async () => {
      const h = await hostileRun('token-307', 'release', {});
      expectNothingLeaked(h);
      expect(h.run.code, h.run.output.slice(-1500)).toBe(108);
      const line = h.run.output.split('\n').find((l) => l.includes('token request refused'));
      // A redirect's body is not read (nothing in it is needed): the line names its Location's origin.
      expect(line, h.run.output.slice(-1500)).toContain(
        `HTTP 307 (a redirect to ${h.listener.origin}, not followed)`,
      );
      expect(h.run.output, 'one line, no stack').not.toMatch(/\tat |\\tat /);
      // Only the token route was asked: nothing went on with a token.
      expect(h.target.requests()).toBe(1);
      // A run that stopped in setup on a refusal failed; its report does not say passed.
      const json = report(h, 'release');
      expect(json.verdict).toBe('failed');
      expect(json.thresholds.find((t) => t.metric === 'load_refusals')?.ok).toBe(false);
    });

    it('huge-body: bodies are discarded, the run ends on its own time with an honest verdict', async () => {
      const h = await hostileRun('huge-body', 'release', {});
      expectNothingLeaked(h);
      const json = report(h, 'release');
      // The answers are 200s: the release profile judges statuses and latency, which reports() holds
      // consistent with the exit code (0 passed, 99 failed: the smoke p95 may not hold for 50 MB answers).
      expect([0, 99], h.run.output.slice(-1500)).toContain(h.run.code);
      expect(json.figures.length).toBeGreaterThan(0);
    });

    it('endless-body: every request ends at the timeout, the run fails, nothing hangs', async () => {
      const h = await hostileRun('endless-body', 'release', {});
      expectNothingLeaked(h);
      expect(h.run.code, h.run.output.slice(-1500)).toBe(99);
      expect(report(h, 'release').verdict).toBe('failed');
    });
  },
);

/** A k6 script sending through load/lib/k6/http.ts to each URL of PROBE_URLS, saying what happened. */
function originProbeScript(dir: string): string {
  const lib = (path: string) => pathToFileURL(join(ROOT, path)).href;
  const file = join(dir, 'origin-probe.js');
  writeFileSync(
    file,
    [
      `import { send } from '${lib('load/lib/k6/http.ts')}';`,
      `import { readLoadConfig } from '${lib('load/lib/config.ts')}';`,
      'const config = readLoadConfig(__ENV);',
      'export const options = { vus: 1, iterations: 1 };',
      'export default function () {',
      '  for (const url of JSON.parse(__ENV.PROBE_URLS)) {',
      '    try {',
      "      const res = send(config, 'GET', url, null, { tags: { endpoint: 'probe' }, headers: { 'x-api-key-secret': config.apiKeySecret } });",
      "      console.log('SENT ' + res.status);",
      '    } catch (error) {',
      "      console.log('REFUSED ' + (error && error.message ? error.message : String(error)));",
      '    }',
      '  }',
      '}',
    ].join('\n'),
  );
  return file;
}

/** A k6 script whose users each send through load/lib/k6/http.ts to PROBE_URL inside inIteration(), as the scripts' users do. */
function iterationRefusalScript(dir: string): string {
  const lib = (path: string) => pathToFileURL(join(ROOT, path)).href;
  const file = join(dir, 'iteration-refusal.js');
  writeFileSync(
    file,
    [
      "import { sleep } from 'k6';",
      `import { BOUNDED_OPTIONS, BOUNDED_THRESHOLDS } from '${lib('load/lib/bounded.ts')}';`,
      `import { send } from '${lib('load/lib/k6/http.ts')}';`,
      `import { inIteration } from '${lib('load/lib/k6/iteration.ts')}';`,
      `import { readLoadConfig } from '${lib('load/lib/config.ts')}';`,
      'const config = readLoadConfig(__ENV);',
      "export const options = { ...BOUNDED_OPTIONS, vus: 2, duration: '20s', thresholds: BOUNDED_THRESHOLDS };",
      'export default function () {',
      "  inIteration(() => send(config, 'GET', __ENV.PROBE_URL, null, { tags: { endpoint: 'probe' } }));",
      '  sleep(0.2);',
      '}',
    ].join('\n'),
  );
  return file;
}

describe.skipIf(noK6)(
  'k6 sends nothing to another origin, wherever the URL came from (real k6)',
  { timeout: 60_000 },
  () => {
    it('refuses URLs off the configured origins before sending, and sends to the configured one', async () => {
      if (!k6) throw new Error(MISSING_K6);
      const elsewhere = await startListener('127.0.0.2');
      const samePortOther = await startListener('127.0.0.1');
      const target = await startK6HostileTarget('token-307');
      const dir = mkdtempSync(join(tmpdir(), 'k6-origin-'));
      try {
        const port = new URL(target.apiBaseUrl).port;
        const urls = [
          `${elsewhere.origin}/api/v1/customers`,
          `${samePortOther.origin}/api/v1/customers`,
          `http://127.0.0.1:${port}@${elsewhere.origin.slice('http://'.length)}/api/`,
          `${target.apiBaseUrl}v1/customers`,
        ];
        const run = await k6RunFile(originProbeScript(dir), {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          K6_NO_USAGE_REPORT: 'true',
          CONFORMANCE_TARGET: 'local',
          API_BASE_URL: target.apiBaseUrl,
          API_KEY_ID: 'origin-key',
          API_KEY_SECRET,
          PROBE_URLS: JSON.stringify(urls),
        });
        expect(elsewhere.heard, 'requests that reached 127.0.0.2').toEqual([]);
        expect(samePortOther.heard, 'requests that reached another port').toEqual([]);
        const refused = run.output
          .split('\n')
          .filter((l) => l.includes('REFUSED refused to send a request to'));
        expect(refused, run.output.slice(-1500)).toHaveLength(3);
        expect(run.output).toContain('SENT 200');
        expect(secretFragments(run.output, [API_KEY_SECRET])).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await target.close();
        await elsewhere.close();
        await samePortOther.close();
      }
    });

    it('a refusal inside an iteration is one console line per user, no stack, and the run fails at once (exit 99)', async () => {
      if (!k6) throw new Error(MISSING_K6);
      const elsewhere = await startListener('127.0.0.2');
      const target = await startK6HostileTarget('token-307');
      const dir = mkdtempSync(join(tmpdir(), 'k6-refusal-'));
      try {
        const run = await k6RunFile(iterationRefusalScript(dir), {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          K6_NO_USAGE_REPORT: 'true',
          CONFORMANCE_TARGET: 'local',
          API_BASE_URL: target.apiBaseUrl,
          API_KEY_ID: 'origin-key',
          API_KEY_SECRET,
          PROBE_URL: `${elsewhere.origin}/api/v1/customers`,
        });
        expect(elsewhere.heard, 'requests that reached 127.0.0.2').toEqual([]);
        const said = run.output
          .split('\n')
          .filter((l) => l.includes(`refused to send a request to ${elsewhere.origin}`));
        // Said once per user (2 users, many iterations until the threshold stops the run).
        expect(said.length, run.output.slice(-1500)).toBeGreaterThanOrEqual(1);
        expect(said.length, run.output.slice(-1500)).toBeLessThanOrEqual(2);
        expect(run.output, 'no stack').not.toMatch(/\\n\\tat |\tat |^\s+at .+:\d+:\d+\)?$/m);
        expect(run.output).toMatch(/thresholds on metrics 'load_refusals' were crossed/);
        expect(run.code, run.output.slice(-1500)).toBe(99);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await target.close();
        await elsewhere.close();
      }
    });
  },
);
