// k6's dashboard reports of real runs, opened in headless Chromium with every request that is not
// the report file itself refused: each shows its request-rate chart, the rate-limit probe's shows
// its 429 series (and holds 429 samples), the release smoke written to a log file has no progress
// line and ends with the verdict, and the conformance page of the folder lists the three runs with
// their links and the limiter drawn. Runs the npm scripts as a user does (briefly: short
// durations, a 3 s window). Skipped only where neither k6 nor Go is installed, or no Chromium.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_INCONCLUSIVE } from '../../common/exit-codes.ts';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { DEFAULT_CREDENTIALS } from '../../src/reference/credentials.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../src/report/chromium.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { fixtureResults, SECRET_LIST } from '../report/fixture.ts';
import { BLANK_TARGET, ROOT, runLoadCli } from './cli-run.ts';
import { k6, MISSING_K6, noK6, removeReportDirs, reportDir } from './k6-run.ts';

const CHROMIUM = CHROMIUM_PATH;
const noChromium = !existsSync(CHROMIUM);
if (noChromium) process.stderr.write(`k6-dashboard.test.ts: skipped, no Chromium at ${CHROMIUM}\n`);
const SCRIPTS = ['rate-limit', 'flag-cache', 'release'] as const;

/** The dashboard's own record of the run (ndjson, gzipped, base64) embedded in its report. */
function dashboardEvents(html: string): { event: string; data: unknown }[] {
  const data = /<script id="data"[^>]*>([^<]*)<\/script>/.exec(html)?.[1]?.trim() ?? '';
  return gunzipSync(Buffer.from(data, 'base64'))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** `npm run load:release -- --profile smoke > log 2>&1`, as the docs say. */
function releaseToLog(env: NodeJS.ProcessEnv, log: string): Promise<number | null> {
  const fd = openSync(log, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'load:release', '--', '--profile', 'smoke'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', fd, fd],
    });
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(fd);
      resolve(code);
    });
  });
}

describe.skipIf(noK6 || noChromium)(
  "k6's dashboard reports of real runs in headless Chromium (skipped without k6 and Go, or without Chromium)",
  { timeout: 180_000 },
  () => {
    let dir: string;
    let browser: Browser;
    const codes: Record<string, number | null> = {};
    let log = '';

    beforeAll(async () => {
      if (!k6) throw new Error(MISSING_K6);
      dir = reportDir('k6-dashboard-');
      // A conformance run of the local target first: the load runs after it are listed on its page.
      await writeReports(
        dir,
        fixtureResults({
          target: {
            name: 'local',
            apiBaseUrl: 'http://127.0.0.1:9/api/',
            petstoreBaseUrl: 'http://127.0.0.1:9/petstore/v1',
          },
        }),
        createSecretFilter(SECRET_LIST),
      );
      const env = { K6_REPORT_DIR: dir, RELEASE_DURATION: '6s' };
      // A 3 s window: a conclusive probe in a few seconds (for the rate-limit run only: the
      // release's users share one credential and would meet it).
      const probe = await runLoadCli(['rate-limit', '--profile', 'smoke'], {
        ...env,
        LOCAL_RATE_LIMIT: '30',
        LOCAL_RATE_WINDOW: '3',
      });
      codes['rate-limit'] = probe.code;
      codes['flag-cache'] = (await runLoadCli(['flag-cache', '--profile', 'smoke'], env)).code;
      const logFile = join(dir, 'release.log');
      codes.release = await releaseToLog({ ...process.env, ...BLANK_TARGET, ...env }, logFile);
      log = readFileSync(logFile, 'utf8');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [...CHROMIUM_ARGS],
      });
    }, 170_000);

    afterAll(async () => {
      await browser?.close();
      removeReportDirs();
    });

    /** Opens a file with every other request refused; returns the page and what it asked for. */
    async function open(file: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const url = pathToFileURL(file).href;
      const requests: string[] = [];
      const errors: string[] = [];
      await page.route('**/*', (route) =>
        route.request().url() === url ? route.continue() : route.abort('internetdisconnected'),
      );
      page.on('request', (r) => requests.push(r.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.waitForLoadState('load');
      return { page, requests, errors };
    }

    it('each run passed and wrote its dashboard report', () => {
      // A probe short of CPU says it cannot tell (inconclusive), never a wrong verdict: the
      // reports are this test's subject, and an inconclusive run writes them too.
      expect([0, EXIT_INCONCLUSIVE], log).toContain(codes['rate-limit']);
      expect([0, EXIT_INCONCLUSIVE], log).toContain(codes['flag-cache']);
      expect(codes.release, log).toBe(0);
      for (const script of SCRIPTS) expect(existsSync(join(dir, `k6-${script}.html`)), script).toBe(true);
    });

    it('the release smoke in a log file: no progress line, the verdict last', () => {
      const lines = log.trimEnd().split('\n');
      expect(lines.at(-1)).toBe('load: passed (exit 0)');
      expect(lines.at(-2)).toMatch(/^load: (dashboard report|listed in the conformance report) /);
      expect(log).toMatch(/^k6 release against local .*: passed in/m);
      // k6's progress bar: "running (00m05.0s), 2/2 VUs, ..." and "users ✓ [ 100% ] ..."
      expect(log).not.toMatch(/running \(\d|\[\s*\d+%\s*\]|█/);
    });

    it('each dashboard report opens with no network and shows its request-rate chart', async () => {
      for (const script of SCRIPTS) {
        const file = join(dir, `k6-${script}.html`);
        const { page, requests, errors } = await open(file);
        expect(requests, script).toEqual([pathToFileURL(file).href]);
        expect(errors, script).toEqual([]);
        await expect.poll(() => page.locator('h4', { hasText: /^Request rate$/ }).count()).toBe(1);
        expect(await page.getByText('requests /s').count(), script).toBeGreaterThan(0);
        // What k6 recorded for the page: metric names, the chosen tags, thresholds; never a secret.
        const recorded = JSON.stringify(dashboardEvents(readFileSync(file, 'utf8')));
        for (const secret of [DEFAULT_CREDENTIALS.clientSecret, DEFAULT_CREDENTIALS.apiKeySecret]) {
          expect(recorded, script).not.toContain(secret);
        }
        await page.close();
      }
    });

    it("the rate-limit probe's report has the 429 series, with 429 answers in it", async () => {
      const file = join(dir, 'k6-rate-limit.html');
      const { page } = await open(file);
      await expect.poll(() => page.locator('h4', { hasText: 'Requests and 429 answers' }).count()).toBe(1);
      expect(await page.getByText('429 answers /s').count()).toBeGreaterThan(0);
      await page.close();
      const metrics = dashboardEvents(readFileSync(file, 'utf8'))
        .filter((e) => e.event === 'metric')
        .flatMap((e) => Object.keys(e.data as object));
      expect(metrics).toContain('http_reqs{status:429}');
    });

    it('the conformance page lists the three runs with their dashboard links, and the limiter drawn', async () => {
      const { page, requests } = await open(join(dir, 'index.html'));
      expect(requests).toHaveLength(1);
      const rows = page.locator('tr[data-kind="load-run"]');
      expect(await rows.count()).toBe(3);
      for (const script of SCRIPTS) {
        const row = page.locator(`tr[data-kind="load-run"][data-script="${script}"]`);
        const verdict = await row.getAttribute('data-verdict');
        // The probes may say inconclusive on a busy machine (above); the release run passes.
        expect(script === 'release' ? ['passed'] : ['passed', 'inconclusive']).toContain(verdict);
        expect(verdict).toBe(codes[script] === 0 ? 'passed' : 'inconclusive');
        expect(await row.locator('a.dashboard').getAttribute('href')).toBe(`k6-${script}.html`);
      }
      const limited = page.locator('[data-kind="limiter"] g[data-series="429"] rect');
      expect(await limited.count()).toBeGreaterThan(0);
      await page.close();
      const markdown = readFileSync(join(dir, 'k6-release.md'), 'utf8');
      expect(markdown).toContain("[k6's dashboard report](k6-release.html)");
      expect(markdown).toMatch(
        /Beside the conformance run of 2026-01-05T10:00:00\.000Z against the same target/,
      );
    });
  },
);
