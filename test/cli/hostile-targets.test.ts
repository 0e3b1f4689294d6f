// `npm run conformance` against broken environments: every run ends within its bounds, with exit 2
// and one line naming the cause when nothing can be reached, or with the affected checks failed
// (exit 1) otherwise; the reports are written either way, and no configured secret appears in
// them, on the console or in an error.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs } from '../support/run-node.ts';
import {
  ECHO_KINDS,
  HOSTILE_KINDS,
  type HostileKind,
  selfSignedCertificate,
  startEchoingTarget,
  startHostileTarget,
} from './hostile-servers.ts';

const SECRETS = {
  CLIENT_SECRET: 'hostile-client-secret-7f3a9c',
  API_KEY_SECRET: 'hostile-api-key-secret-2b8e4d',
  PINNED_API_KEY_SECRET: 'hostile-pinned-secret-91c0aa',
  EXPIRED_ACCESS_TOKEN: 'hostile-expired-token-5d6e7f',
};

// Where nothing answers, the run stops before the checks: exit 2 and the cause in one line.
const UNREACHABLE: Partial<Record<HostileKind, RegExp>> = {
  refused: /refused/i,
  'dns-failure': /dns|resolve|not found/i,
  'tls-self-signed': /tls|certificate/i,
  'never-answers': /time(d)? ?out/i,
  'reset-mid-body': /reset|closed|socket/i,
};

interface Run {
  code: number | null;
  output: string;
  reportsDir: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// A short request timeout only where the target never answers (so that run ends soon); a target
// that does answer gets the default's room, since ten CLI runs start at once on two cores and a
// 1.5 s timeout then fired before an immediate answer was read (5xx-storm, exit 2 instead of 1),
// and 15 s before a 10 MB answer to the token request was read at load 21 (exit 2 instead of 1).
const TIMEOUT_MS: Partial<Record<HostileKind, string>> = {
  'never-answers': '1500',
};

function conformance(
  apiBaseUrl: string,
  petstoreBaseUrl: string,
  // An answering target answers at once: only a hang outlasts this. 30 s was not enough on CI at
  // load 30 (ten runs at once on 2 cores): a starved CLI read the answer to its first request late.
  timeoutMs = '120000',
  secrets: Record<string, string> = SECRETS,
): Promise<Run> {
  const reportsDir = mkdtempSync(join(tmpdir(), 'hostile-reports-'));
  dirs.push(reportsDir);
  const env = {
    ...process.env,
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: apiBaseUrl,
    PETSTORE_BASE_URL: petstoreBaseUrl,
    CLIENT_ID: 'hostile-client',
    API_KEY_ID: 'hostile-key',
    PINNED_API_KEY_ID: 'hostile-pinned-key',
    ...secrets,
    REQUEST_TIMEOUT_MS: timeoutMs,
    CONFORMANCE_SLOW: '0',
    CONFORMANCE_STRICT: '0',
    CONFORMANCE_REPORTS_DIR: reportsDir,
    REFERENCE_CONTROL_URL: '',
    DISABLED_FEATURE_ROUTE: '',
    NODE_TLS_REJECT_UNAUTHORIZED: '1',
    FORCE_COLOR: '0',
  };
  // One stream, as a person sees it: the reason line may come on either.
  // The run's traffic too (CI writes it by default): the HAR is one more sink of the target's words.
  return runTs('src/cli/conformance.ts', ['--har', join(reportsDir, 'run.har')], { env }).then((run) => ({
    code: run.code,
    output: run.stdout + run.stderr,
    reportsDir,
  }));
}

/** The files a run wrote in its reports folder, by name (history/ and other folders read too). */
function filesWritten(dir: string, prefix = ''): [string, string][] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry): [string, string][] =>
      entry.isDirectory()
        ? filesWritten(join(dir, entry.name), `${prefix}${entry.name}/`)
        : [[`${prefix}${entry.name}`, readFileSync(join(dir, entry.name), 'utf8')]],
    );
}

function everythingWritten(run: Run): string {
  const files = filesWritten(run.reportsDir).map(([, text]) => text);
  return [run.output, ...files].join('\n');
}

const kinds = HOSTILE_KINDS.filter((kind) => kind !== 'tls-self-signed' || selfSignedCertificate());

describe.concurrent('a conformance run against a misbehaving target', () => {
  it.each(kinds)(
    '%s: ends with a clear outcome, reports written, no secret anywhere',
    async (kind) => {
      const target = await startHostileTarget(kind);
      let run: Run;
      try {
        run = await conformance(target.apiBaseUrl, target.petstoreBaseUrl, TIMEOUT_MS[kind]);
      } finally {
        await target.close();
      }
      // No stack dumps: every reason is one line of ours.
      expect(run.output, 'no stack trace on the console').not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      const unreachable = UNREACHABLE[kind];
      if (unreachable) {
        expect(run.code, run.output.slice(-400)).toBe(2);
        const reason = run.output.split('\n').find((line) => line.includes('cannot reach the target'));
        expect(reason, run.output.slice(-400)).toMatch(unreachable);
      } else {
        expect(run.code, run.output.slice(-400)).toBe(1);
        const results = JSON.parse(readFileSync(join(run.reportsDir, 'results.json'), 'utf8'));
        const failed = results.checks.filter((c: { status: string }) => c.status === 'failed');
        expect(failed.length, 'checks failed against the hostile target').toBeGreaterThan(0);
        for (const check of failed) {
          expect(check.reason, `${check.id} has a reason`).toBeTruthy();
          expect(String(check.reason), `${check.id}: one-line reason`).not.toContain('\n');
        }
      }
      expect(existsSync(join(run.reportsDir, 'results.json')), 'results.json written').toBe(true);
      expect(existsSync(join(run.reportsDir, 'summary.md')), 'summary.md written').toBe(true);
      const written = everythingWritten(run);
      for (const [name, secret] of Object.entries(SECRETS)) {
        expect(written.includes(secret), `${name} leaked`).toBe(false);
      }
    },
    // Ten CLI runs side by side: at a load of 15-30 on 2 cores one took over 90 s; only a hang takes this.
    600_000,
  );
});

// --- The target's words are the attack: secrets, escapes, workflow commands, shell words, size --

/** A secret no other text of a run contains, so any 8 characters of it found are a leak. */
const randomSecret = () => randomBytes(18).toString('base64url').replace(/[-_]/g, 'x');

interface Outputs {
  console: string;
  files: Record<string, string>;
}

const outputsOf = (run: Run): Outputs => ({
  console: run.output,
  files: Object.fromEntries(filesWritten(run.reportsDir)),
});

/** Each 8-character piece of a secret found in an output, as "where: piece". */
function fragmentsFound(outputs: Outputs, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const [where, text] of [['console', outputs.console], ...Object.entries(outputs.files)] as const) {
    for (const secret of secrets) {
      for (let i = 0; i + 8 <= secret.length; i++) {
        const piece = secret.slice(i, i + 8);
        if (text.includes(piece)) found.push(`${where}: ${piece}`);
      }
    }
  }
  return found;
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Every command a person could copy: console, summary.md, index.html, junit.xml. */
function commandsOf(outputs: Outputs): { where: string; command: string }[] {
  const out: { where: string; command: string }[] = [];
  const lines = (where: string, text: string) => {
    for (const m of text.matchAll(/(?:reproduce|replay) with: (.*)$/gm))
      out.push({ where, command: m[1] ?? '' });
  };
  lines('console', outputs.console);
  lines('junit.xml', unescapeHtml((outputs.files['junit.xml'] ?? '').replace(/<\/failure>/g, '\n')));
  const md = outputs.files['summary.md'] ?? '';
  for (const m of md.matchAll(/^ *(`{3,})sh\n *(.*)\n *\1$/gm))
    out.push({ where: 'summary.md', command: m[2] ?? '' });
  const html = outputs.files['index.html'] ?? '';
  for (const m of html.matchAll(/<pre class="reproduce[^"]*">([^<]*)<\/pre>/g))
    out.push({ where: 'index.html', command: unescapeHtml(m[1] ?? '') });
  // A sink's note in place of a command (a request it cannot show whole, or one holding a value no
  // variable of .env holds) is not a command.
  return out.filter((c) => !c.command.startsWith('(not shown') && !c.command.startsWith('(no command'));
}

let fakeCurl: string | undefined;
/**
 * A folder whose only programs are a curl and an npm that say they ran, and a sed that swallows
 * its input: a command run with it as PATH can run nothing else (anything else is "command not
 * found"), and only its last curl (or npm) is heard.
 */
function fakeProgramsPath(): string {
  if (fakeCurl) return fakeCurl;
  const dir = mkdtempSync(join(tmpdir(), 'fake-curl-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'curl'), '#!/bin/bash\necho curl ran\n', { mode: 0o755 });
  writeFileSync(join(dir, 'npm'), '#!/bin/bash\necho npm ran\n', { mode: 0o755 });
  // A bearer request's command reads the token out of the token answer with sed first.
  writeFileSync(join(dir, 'sed'), '#!/bin/bash\nwhile read -r _; do :; done\n', { mode: 0o755 });
  fakeCurl = dir;
  return dir;
}

/** Whether a command parses (bash -n) and, run, runs its one program (curl, or npm to replay) and nothing else. */
function shellProblem(command: string): string | undefined {
  const parsed = spawnSync('/bin/bash', ['-n', '-c', command], { encoding: 'utf8' });
  if (parsed.status !== 0) return `bash -n: ${parsed.stderr.trim()}`;
  const run = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', command], {
    encoding: 'utf8',
    env: { PATH: fakeProgramsPath(), HOME: tmpdir() },
    timeout: 10_000,
  });
  const program = /\bnpm run conformance\b/.test(command) ? 'npm' : 'curl';
  if (run.stdout !== `${program} ran\n` || run.stderr !== '')
    return `ran: ${JSON.stringify(run.stdout + run.stderr)}`;
  return undefined;
}

const PWNED = ['backtick', 'subst', 'newline'].map((w) => `/tmp/sinks-pwned-${w}`);

describe.concurrent('a conformance run against a target whose words are the attack', () => {
  it.each(ECHO_KINDS)(
    '%s: no secret or piece of one, no escape, no workflow command, commands run only curl, results.json parses',
    async (kind) => {
      const secrets = {
        CLIENT_SECRET: randomSecret(),
        API_KEY_SECRET: randomSecret(),
        PINNED_API_KEY_SECRET: randomSecret(),
        EXPIRED_ACCESS_TOKEN: randomSecret(),
      };
      const target = await startEchoingTarget(kind, Object.values(secrets));
      let run: Run;
      try {
        run = await conformance(target.apiBaseUrl, target.petstoreBaseUrl, undefined, secrets);
      } finally {
        await target.close();
      }
      const outputs = outputsOf(run);
      const expected = kind === 'refuses-setup-in-escapes' ? 2 : 1;
      expect(run.code, run.output.slice(-600)).toBe(expected);

      // No secret, and no 8 characters of one (a cut before redaction leaves the start behind). The
      // token is the run's secret once the target has issued it (it refuses to in the setup case).
      const issued = kind === 'refuses-setup-in-escapes' ? [] : [target.token];
      expect(fragmentsFound(outputs, [...Object.values(secrets), ...issued])).toEqual([]);

      // Nothing a terminal would run or draw, nothing the Actions runner would obey.
      for (const [where, text] of [['console', outputs.console] as const, ...Object.entries(outputs.files)]) {
        expect(text.includes('\u001b'), `ESC in ${where}`).toBe(false);
        expect(text.includes('\u009b'), `C1 CSI in ${where}`).toBe(false);
      }
      expect(outputs.console.match(/^\s*(::|##\[).*$/gm) ?? [], 'workflow commands on the console').toEqual(
        [],
      );

      // results.json parses (and the history of the next run can read it).
      expect(() => JSON.parse(outputs.files['results.json'] ?? ''), 'results.json parses').not.toThrow();

      if (kind === 'refuses-setup-in-escapes') {
        // The one-line setup refusal names the refusal, in the target's words made safe.
        const refusal = run.output.split('\n').find((l) => l.includes('client credentials refused'));
        expect(refusal, run.output.slice(-600)).toBeDefined();
        return;
      }
      // Every command a person can copy parses, and run runs curl and nothing else.
      const commands = commandsOf(outputs);
      expect(commands.length, 'commands to reproduce the failures').toBeGreaterThan(3);
      const problems = commands
        .map((c) => ({ ...c, problem: shellProblem(c.command) }))
        .filter((c) => c.problem !== undefined);
      expect(problems).toEqual([]);
      for (const file of PWNED) expect(existsSync(file), `${file} made by a printed command`).toBe(false);

      // One check's console output is capped: a 4 MiB pet name printed 8.4 MB before.
      const longest = Math.max(...outputs.console.split('\n').map((l) => l.length));
      expect(longest, 'longest console line').toBeLessThan(4400);
      expect(outputs.console.length, 'console output').toBeLessThan(512 * 1024);
    },
    // The 4 MiB pet name is fetched by every pet check: minutes on a machine busy with npm test.
    300_000,
  );
});
