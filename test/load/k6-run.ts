// Running the k6 scripts for real in tests: k6 found as the CLI finds it, a reference server started
// with chosen options, the environment the CLI would build, and the three report files read back
// (present, well-formed, consistent with the exit code, free of secrets).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import { loadSettings, resolveTarget } from '../../src/config/index.ts';
import { findK6, K6_VERSION, onPath } from '../../src/launcher/find-k6.ts';
import { k6Environment } from '../../src/launcher/k6-env.ts';
import { LOAD_SCRIPTS, type LoadScriptName } from '../../src/launcher/scripts.ts';
import { type ReferenceServerOptions, startReferenceServer } from '../../src/reference/index.ts';
import { ROOT } from './cli-run.ts';

export const k6 = findK6();
export const go = onPath('go');
/** Real-k6 tests skip only where neither k6 nor Go is installed. */
export const noK6 = !k6 && !go;

export const MISSING_K6 = `Go is installed but k6 is not: run npm test (its pretest step builds k6 into .tools/bin), or go install go.k6.io/k6@${K6_VERSION} (it lands in $(go env GOPATH)/bin)`;

const dirs: string[] = [];
export function removeReportDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function reportDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export interface K6Run {
  code: number | null;
  output: string;
  reportDir: string;
  secrets: string[];
  /** Wall time of the k6 run (ms). */
  wallMs: number;
}

/** Starts a reference server, runs one script against it with k6 (environment as the CLI builds it: the hand-over). */
export async function runK6(
  script: LoadScriptName,
  server: ReferenceServerOptions,
  variables: Record<string, string>,
): Promise<K6Run> {
  if (!k6) throw new Error(MISSING_K6);
  const reference = await startReferenceServer(server);
  const dir = reportDir(`k6-${script}-`);
  try {
    const loaded = loadSettings({}, { envFile: false });
    if (!loaded.ok) throw new Error('the empty configuration should be valid');
    const config = resolveTarget(loaded.settings, reference);
    // The profile is handed over with the target, as the CLI does (--profile).
    const { LOAD_PROFILE: profile, ...others } = variables;
    const env = k6Environment(config, {
      base: { PATH: process.env.PATH, HOME: process.env.HOME, ...others },
      profile,
      reportDir: dir,
      petstore: LOAD_SCRIPTS[script].petstore,
      control: LOAD_SCRIPTS[script].control,
    });
    const started = Date.now();
    const { code, output } = await k6Run(script, env);
    return {
      code,
      output,
      reportDir: dir,
      secrets: [config.credentials.clientSecret, config.credentials.apiKeySecret],
      wallMs: Date.now() - started,
    };
  } finally {
    await reference.close();
  }
}

/** `k6 run` of one script in this environment: its exit code and both output streams as one. */
export function k6Run(
  script: LoadScriptName,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return k6RunFile(join(ROOT, LOAD_SCRIPTS[script].file), env);
}

/** `k6 run` of any script file (a test's own) in this environment. */
export function k6RunFile(
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(k6 as string, ['run', '--quiet', '--address', '127.0.0.1:0', file], { env });
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
}

/**
 * Runs one script with k6 against any server on this machine (API key credentials given), the
 * direct-run way: the individual variables, no hand-over (docs/load.md).
 */
export async function runK6At(
  script: LoadScriptName,
  apiBaseUrl: string,
  variables: Record<string, string>,
): Promise<K6Run> {
  if (!k6) throw new Error(MISSING_K6);
  const dir = reportDir(`k6-${script}-`);
  const secret = 'independent-server-secret';
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    K6_NO_USAGE_REPORT: 'true',
    CONFORMANCE_TARGET: 'local',
    API_BASE_URL: apiBaseUrl,
    API_KEY_ID: 'independent-key',
    API_KEY_SECRET: secret,
    K6_REPORT_DIR: dir,
    ...variables,
  };
  const started = Date.now();
  const { code, output } = await k6Run(script, env);
  return { code, output, reportDir: dir, secrets: [secret], wallMs: Date.now() - started };
}

/** The three handleSummary files: present, well-formed, consistent, free of secrets. */
export function reports(run: K6Run, script: string): { json: LoadReport; junit: string; markdown: string } {
  const base = join(run.reportDir, `k6-${script}`);
  for (const ext of ['.json', '.md', '.junit.xml']) {
    expect(existsSync(`${base}${ext}`), `${base}${ext} (k6 said: ${run.output.slice(-2000)})`).toBe(true);
  }
  const json = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as LoadReport;
  const junit = readFileSync(`${base}.junit.xml`, 'utf8');
  const markdown = readFileSync(`${base}.md`, 'utf8');
  expect(XMLValidator.validate(junit)).toBe(true);
  expect(json.script).toBe(script);
  expect(json.passed).toBe(json.verdict === 'passed');
  // k6 exits 0 exactly when the report says passed (an inconclusive run makes it exit 99 too).
  if (run.code === 0 || run.code === 99) expect(json.passed, run.output).toBe(run.code === 0);
  const headline = json.verdict === 'passed' ? 'passed' : json.verdict.toUpperCase();
  expect(markdown.split('\n')[0]).toBe(`# k6 ${script}: ${headline}`);
  for (const text of [JSON.stringify(json), junit, markdown, run.output]) {
    for (const secret of run.secrets) expect(text).not.toContain(secret);
  }
  return { json, junit, markdown };
}

export function junitFailures(junit: string): string[] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(junit);
  const cases = parsed.testsuites.testsuite.testcase as { name: string; failure?: unknown }[];
  return cases.filter((c) => c.failure !== undefined).map((c) => c.name);
}

export const verdict = (report: LoadReport, start: string) =>
  report.verdicts.find((v) => v.name.startsWith(start));
