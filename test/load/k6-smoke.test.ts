// The three k6 scripts run for real, briefly, against reference servers started here: exit codes,
// the handleSummary files, the rate-limit probe's limit against a known limiter, and the flag-cache
// probe against a clean server and one with the `flags-not-cached` fault (its clock moved through
// the control API, so several 60 s windows pass in a few real seconds).
// Skipped only on a machine with neither k6 nor Go; with Go but no k6 it fails, saying what to run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import { loadSettings, resolveTarget } from '../../src/config/index.ts';
import { findK6, K6_VERSION, onPath } from '../../src/load/find-k6.ts';
import { k6Environment } from '../../src/load/k6-env.ts';
import { LOAD_SCRIPTS, type LoadScriptName } from '../../src/load/scripts.ts';
import { type ReferenceServerOptions, startReferenceServer } from '../../src/reference/index.ts';
import { ROOT, runLoadCli } from './cli-run.ts';

const k6 = findK6();
const go = onPath('go');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface K6Run {
  code: number | null;
  output: string;
  reportDir: string;
  secrets: string[];
}

/** Starts a reference server, runs one script against it with k6 (environment as the CLI builds it). */
async function runK6(
  script: LoadScriptName,
  server: ReferenceServerOptions,
  variables: Record<string, string>,
): Promise<K6Run> {
  const reference = await startReferenceServer(server);
  const reportDir = mkdtempSync(join(tmpdir(), `k6-${script}-`));
  dirs.push(reportDir);
  try {
    const loaded = loadSettings({}, { envFile: false });
    if (!loaded.ok) throw new Error('the empty configuration should be valid');
    const config = resolveTarget(loaded.settings, reference);
    const env = k6Environment(config, {
      base: { PATH: process.env.PATH, HOME: process.env.HOME, ...variables },
      reportDir,
      petstore: LOAD_SCRIPTS[script].petstore,
      control: LOAD_SCRIPTS[script].control,
    });
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(k6 as string, ['run', '--quiet', join(ROOT, LOAD_SCRIPTS[script].file)], { env });
      let text = '';
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, output: text }));
    });
    return {
      code,
      output,
      reportDir,
      secrets: [config.credentials.clientSecret, config.credentials.apiKeySecret],
    };
  } finally {
    await reference.close();
  }
}

/** The three handleSummary files: present, well-formed, consistent, free of secrets. */
function reports(run: K6Run, script: string): { json: LoadReport; junit: string; markdown: string } {
  const base = join(run.reportDir, `k6-${script}`);
  for (const ext of ['.json', '.md', '.junit.xml']) {
    expect(existsSync(`${base}${ext}`), `${base}${ext} (k6 said: ${run.output.slice(-2000)})`).toBe(true);
  }
  const json = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as LoadReport;
  const junit = readFileSync(`${base}.junit.xml`, 'utf8');
  const markdown = readFileSync(`${base}.md`, 'utf8');
  expect(XMLValidator.validate(junit)).toBe(true);
  expect(json.script).toBe(script);
  expect(json.passed).toBe(run.code === 0);
  expect(markdown.split('\n')[0]).toBe(`# k6 ${script}: ${json.passed ? 'passed' : 'FAILED'}`);
  for (const text of [JSON.stringify(json), junit, markdown, run.output]) {
    for (const secret of run.secrets) expect(text).not.toContain(secret);
  }
  return { json, junit, markdown };
}

function junitFailures(junit: string): string[] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(junit);
  const cases = parsed.testsuites.testsuite.testcase as { name: string; failure?: unknown }[];
  return cases.filter((c) => c.failure !== undefined).map((c) => c.name);
}

const verdict = (report: LoadReport, start: string) => report.verdicts.find((v) => v.name.startsWith(start));

describe.skipIf(!k6 && !go)(
  'the k6 scripts, run by k6 (skipped only where neither k6 nor Go is installed)',
  { timeout: 120_000 },
  () => {
    beforeAll(() => {
      if (!k6) {
        throw new Error(
          `Go is installed but k6 is not: run npm test (its pretest step builds k6 into .tools/bin), or go install go.k6.io/k6@${K6_VERSION} (it lands in $(go env GOPATH)/bin)`,
        );
      }
    });

    describe.concurrent('smoke runs against the reference server', () => {
      it('rate-limit finds the configured limit within 20 % and passes a conformant limiter', async () => {
        const LIMIT = 30;
        const run = await runK6(
          'rate-limit',
          { rateLimit: { limit: LIMIT, windowSeconds: 5 } },
          {
            RATE_START: '2',
            RATE_CEILING: '24',
            RATE_STEPS: '4',
            RATE_STEP_DURATION: '3s',
            RATE_WINDOW: '5s',
            RATE_EXPECTED_LIMIT: String(LIMIT),
            RATE_MAX_RETRY_AFTER: '10s',
          },
        );
        expect(run.code, run.output).toBe(0);
        const { json, junit } = reports(run, 'rate-limit');
        const limit = (json.analysis as { limit: { limited: boolean; limitPerWindow?: number } }).limit;
        expect(limit.limited).toBe(true);
        const observed = limit.limitPerWindow as number;
        process.stdout.write(`k6 rate-limit: observed ${observed} per 5 s window, configured ${LIMIT}\n`);
        expect(Math.abs(observed - LIMIT) / LIMIT).toBeLessThanOrEqual(0.2);
        expect(verdict(json, 'every 429')?.ok).toBe(true);
        expect(verdict(json, 'a request after waiting')?.ok).toBe(true);
        expect(verdict(json, 'no 5xx')?.ok).toBe(true);
        expect(junitFailures(junit)).toEqual([]);
      });

      it('flag-cache passes the clean server, having seen renewals 60 s apart', async () => {
        const run = await runK6(
          'flag-cache',
          { control: true },
          { LOAD_PROFILE: 'smoke', FLAG_DURATION: '8s', FLAG_TIME_LAPSE: '20' },
        );
        expect(run.code, run.output).toBe(0);
        const { json } = reports(run, 'flag-cache');
        // Decided, not merely "no violation": at least one poller saw two renewals.
        expect(verdict(json, 'flag data does not change')).toMatchObject({
          ok: true,
          detail: '0 violation(s)',
        });
        expect(json.metrics.flag_cache_change_interval_s?.values.min).toBeGreaterThanOrEqual(59);
        expect(verdict(json, 'polling stays below')?.ok).toBe(true);
      });

      it('flag-cache flags the flags-not-cached fault (exit 99, violations counted)', async () => {
        const run = await runK6(
          'flag-cache',
          { control: true, faults: ['flags-not-cached'] },
          { LOAD_PROFILE: 'smoke', FLAG_DURATION: '8s', FLAG_TIME_LAPSE: '20' },
        );
        expect(run.code, run.output).toBe(99);
        const { json, junit } = reports(run, 'flag-cache');
        expect(json.metrics.flag_cache_violations?.values.count).toBeGreaterThan(0);
        expect(verdict(json, 'flag data does not change')?.ok).toBe(false);
        expect(junitFailures(junit)).toContain('flag_cache_violations: count==0');
      });

      it('release smoke through npm run load:release (the CLI starts the server, real k6)', async () => {
        const reportDir = mkdtempSync(join(tmpdir(), 'k6-cli-release-'));
        dirs.push(reportDir);
        const run = await runLoadCli(
          ['release', '--profile', 'smoke', '--env', 'RELEASE_DURATION=4s', '--quiet'],
          {
            PATH: [dirname(k6 as string), process.env.PATH].join(delimiter),
            K6_REPORT_DIR: reportDir,
          },
        );
        const output = `${run.stdout}\n${run.stderr}`;
        expect(run.code, output).toBe(0);
        const { json } = reports(
          {
            code: run.code,
            output,
            reportDir,
            secrets: [
              'local-client-secret-do-not-use-elsewhere',
              'local-api-key-secret-do-not-use-elsewhere',
            ],
          },
          'release',
        );
        expect(json.target.name).toBe('local');
        expect(json.thresholds.map((t) => t.metric)).toContain('http_req_duration{endpoint:pets}');
        expect(json.thresholds.every((t) => t.ok)).toBe(true);
        for (const endpoint of ['customers', 'user-me', 'feature-flags', 'pets']) {
          expect(
            json.metrics[`http_req_duration{endpoint:${endpoint}}`]?.values.count,
            endpoint,
          ).toBeGreaterThan(0);
        }
        expect(json.checks.every((c) => c.fails === 0 && c.passes > 0)).toBe(true);
      });
    });
  },
);
