// The workflows' shell steps, run locally on a fresh clone of this repository (HEAD, as CI checks
// it out): every `run:` of .github/workflows/ is one line calling a script of .github/scripts/ (or
// npm), and those scripts do what the workflows rely on: the release gate's verdict per exit code
// (3 is "not proved", a warning, never "passed"), a job summary under GitHub's 1 MiB, one issue for
// failing nights, the exit code a run recorded; and the reusable release workflow's steps, run in
// order, produce the reviewer's release page. Before: load.yml ran the release profile alone (no
// probes, no conformance run, no JUnit, exit 3 unhandled, nothing published when cancelled), and
// the nightly history was saved only on success.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findK6, onPath } from '../../src/launcher/find-k6.ts';

const ROOT = join(import.meta.dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
}
const workflow = (file: string) => parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as Workflow;
const allSteps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
/** A GitHub expression as a workflow writes it: `${{ ... }}`. */
const expression = (inside: string) => `$\{{ ${inside} }}`;

let clone: string;
const dirs: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

beforeAll(() => {
  clone = join(temp('workflows-clone-'), 'repo');
  // --shared: the objects are this repository's (nothing copied); the checkout is a fresh one.
  execFileSync('git', ['clone', '--quiet', '--shared', ROOT, clone]);
  // What `npm ci` and the pinned k6 would give the clone, borrowed rather than installed again.
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  if (existsSync(join(ROOT, '.tools'))) symlinkSync(join(ROOT, '.tools'), join(clone, '.tools'));
}, 120_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** A script of .github/scripts/ in the clone, as a workflow step runs it. */
function step(script: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
  const run = spawnSync(join(clone, '.github/scripts', script), args, {
    cwd: cwd ?? clone,
    env: { ...process.env, GITHUB_ACTIONS: 'true', ...env },
    encoding: 'utf8',
    timeout: 600_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function reportsWith(files: Record<string, string>): string {
  const dir = temp('workflow-reports-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('the workflows', () => {
  it('keep their shell logic in scripts: each run is one line, each script there, executable and parsable', () => {
    for (const file of readdirSync(WORKFLOWS)) {
      for (const s of allSteps(workflow(file))) {
        if (s.run === undefined) continue;
        expect(s.run.trim().split('\n'), `${file}: ${s.name ?? s.run}`).toHaveLength(1);
        const script = /^\.github\/scripts\/([\w.-]+)/.exec(s.run)?.[1];
        if (!script) continue;
        const path = join(ROOT, '.github/scripts', script);
        expect(statSync(path).mode & 0o111, `${script} is executable`).not.toBe(0);
        expect(spawnSync('bash', ['-n', path]).status, `${script} parses`).toBe(0);
      }
    }
  });

  it('gate a release from one reusable workflow: release, tag and by-hand triggers, workflow_call', () => {
    const release = workflow('release.yml');
    expect(Object.keys(release.on).sort()).toEqual(['push', 'release', 'workflow_call', 'workflow_dispatch']);
    expect(release.on.push).toEqual({ tags: ['v*'] });
    const steps = allSteps(release);
    const check = steps.findIndex((s) => s.id === 'check');
    expect(steps[check]?.run).toMatch(/^\.github\/scripts\/run-release-check\.sh /);
    // Everything after the check runs when it failed, was cancelled or timed out.
    const after = steps.slice(check + 1);
    expect(after.map((s) => s.if)).toEqual(after.map(() => expression('always()')));
    expect(after.map((s) => s.run ?? s.uses)).toEqual([
      'mikepenz/action-junit-report@v5',
      '.github/scripts/job-summary.sh reports',
      'actions/upload-artifact@v7',
      '.github/scripts/release-gate.sh reports',
    ]);
    expect(after[0]?.with?.report_paths).toBe('reports/*junit.xml');
    expect(String(after[2]?.with?.path)).toContain('reports/*.har');
    expect(existsSync(join(WORKFLOWS, 'load.yml')), 'load.yml gave way to release.yml').toBe(false);
  });

  it('keep the nightly history through failing nights and report a failed night once', () => {
    const steps = workflow('conformance.yml').jobs.conformance?.steps ?? [];
    const names = steps.map((s) => s.uses ?? s.run);
    const restore = names.indexOf('actions/cache/restore@v5');
    const run = names.indexOf('npm run conformance');
    const save = names.indexOf('actions/cache/save@v5');
    expect(restore).toBeGreaterThan(-1);
    expect(restore).toBeLessThan(run);
    expect(save).toBeGreaterThan(run);
    expect(steps[save]?.if).toBe(expression('always()'));
    const issue = steps.find((s) => s.run === '.github/scripts/nightly-issue.sh reports');
    expect(issue?.if).toBe(expression("failure() && github.event_name == 'schedule'"));
  });

  it('are actionlint-clean', (ctx) => {
    const actionlint =
      process.env.ACTIONLINT ??
      onPath('actionlint') ??
      [join(ROOT, '.tools/bin/actionlint')].find(existsSync);
    if (!actionlint) ctx.skip('actionlint not found (.ci/run builds it with Go into .tools/bin)');
    const files = readdirSync(WORKFLOWS).map((f) => join(WORKFLOWS, f));
    const lint = spawnSync(actionlint as string, ['-shellcheck=', ...files], { encoding: 'utf8' });
    expect(lint.stdout + lint.stderr).toBe('');
    expect(lint.status).toBe(0);
  });
});

const TSV = (rows: [string, number, string, string][]) =>
  rows
    .map(([name, code, verdict, last]) => `${name}\t${code}\t${verdict}\tnpm run ${name}\t${last}\n`)
    .join('');

describe('release-gate.sh, on a fresh clone', () => {
  const passed: [string, number, string, string][] = [
    ['conformance', 0, 'passed', ''],
    ['rate-limit', 0, 'passed', 'load: passed (exit 0)'],
  ];

  it('passes a release whose steps all passed', () => {
    const run = step('release-gate.sh', [reportsWith({ 'release-check.tsv': TSV(passed) })]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('::notice title=rate-limit passed::npm run rate-limit: exit 0');
  });

  it('treats exit 3 as "not proved": a warning that says so, and a failure only when asked', () => {
    const tsv = TSV([
      ...passed,
      ['flag-cache', 3, 'not proved', 'load: inconclusive (exit 3): no renewal seen'],
    ]);
    const dir = reportsWith({ 'release-check.tsv': tsv });
    const run = step('release-gate.sh', [dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '::warning title=flag-cache not proved::npm run flag-cache proved nothing (exit 3): not proved is not passed; load: inconclusive (exit 3): no renewal seen',
    );
    expect(step('release-gate.sh', [dir], { FAIL_ON_NOT_PROVED: 'on' }).code).toBe(3);
  });

  it('fails the release on a failed step (a MUST check), and on a step that could not run', () => {
    const failed = step('release-gate.sh', [
      reportsWith({ 'release-check.tsv': TSV([['conformance', 1, 'failed', ''], ...passed.slice(1)]) }),
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('::error title=conformance failed::npm run conformance failed (exit 1)');
    const setup = step('release-gate.sh', [
      reportsWith({
        'release-check.tsv': TSV([['release', 2, 'did not run', 'load: cannot reach the target']]),
      }),
    ]);
    expect(setup.code).toBe(2);
    expect(setup.stdout).toContain('::error title=release did not run::');
    const nothing = step('release-gate.sh', [reportsWith({})]);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).toMatch(/^::error title=release check::no step recorded/);
  });
});

describe('job-summary.sh, on a fresh clone', () => {
  it('stays under GitHub 1 MiB, cutting at a line and naming what is left out', () => {
    const line = `${'| row | of a long summary |'.padEnd(99, ' ')}\n`;
    const dir = reportsWith({
      'release.md': '# Release check: passed\n',
      'summary.md': line.repeat(30_000), // 3 MB
      'k6-release.md': '# release\n',
    });
    const out = join(temp('summary-'), 'summary');
    const run = step('job-summary.sh', [dir], { GITHUB_STEP_SUMMARY: out });
    expect(run.code).toBe(0);
    const written = readFileSync(out);
    expect(written.length).toBeLessThanOrEqual(1024 * 1024);
    const text = written.toString('utf8');
    expect(text.startsWith('# Release check: passed\n')).toBe(true);
    expect(text).toContain('_summary.md is cut here: the step summary is limited to 1 MiB');
    expect(text).toContain('in the reports artifact: (rest of summary.md) k6-release.md_');
    // Cut at a line end: every table line whole.
    for (const l of text.split('\n').filter((l) => l.startsWith('| row'))) expect(`${l}\n`).toBe(line);
  });

  it('writes every part when they fit, and says so when there is none', () => {
    const dir = reportsWith({ 'summary.md': '# Conformance\n', 'k6-rate-limit.md': '# rate-limit\n' });
    const out = join(temp('summary-'), 'summary');
    step('job-summary.sh', [dir], { GITHUB_STEP_SUMMARY: out });
    expect(readFileSync(out, 'utf8')).toBe('# Conformance\n\n# rate-limit\n\n');
    const none = join(temp('summary-'), 'summary');
    step('job-summary.sh', [reportsWith({})], { GITHUB_STEP_SUMMARY: none });
    expect(readFileSync(none, 'utf8')).toMatch(/^No report in .*: the run ended before writing one/);
  });
});

describe('nightly-issue.sh, on a fresh clone', () => {
  /** A stand-in gh that records its calls and lists FAKE_OPEN as the open issue. */
  function fakeGh(): { dir: string; log: string } {
    const dir = temp('fake-gh-');
    const log = join(dir, 'calls');
    writeFileSync(
      join(dir, 'gh'),
      `#!/bin/sh\necho "$*" >> '${log}'\nif [ "$1 $2" = "issue list" ]; then echo "$FAKE_OPEN"; fi\nexit 0\n`,
    );
    chmodSync(join(dir, 'gh'), 0o755);
    return { dir, log };
  }
  const env = (gh: string, open: string) => ({
    PATH: `${gh}:${process.env.PATH}`,
    FAKE_OPEN: open,
    GITHUB_REPOSITORY: 'example/conformance',
    RUN_URL: 'https://github.com/example/conformance/actions/runs/1',
  });

  it('opens one issue when none is open', () => {
    const gh = fakeGh();
    const run = step(
      'nightly-issue.sh',
      [reportsWith({ 'summary.md': '# 2 checks failed\n' })],
      env(gh.dir, ''),
    );
    expect(run.code, run.stderr).toBe(0);
    const calls = readFileSync(gh.log, 'utf8').trim().split('\n');
    expect(calls[0]).toMatch(
      /^issue list --repo example\/conformance --label nightly-conformance --state open/,
    );
    expect(calls.at(-1)).toMatch(
      /^issue create --repo example\/conformance --label nightly-conformance --title Nightly conformance run failed --body-file /,
    );
  });

  it('comments on the open one instead of opening another', () => {
    const gh = fakeGh();
    const run = step('nightly-issue.sh', [reportsWith({})], env(gh.dir, '7'));
    expect(run.code, run.stderr).toBe(0);
    const calls = readFileSync(gh.log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatch(/^issue comment 7 --repo example\/conformance --body-file /);
  });
});

describe('exit-code-of-results.sh, on a fresh clone', () => {
  it("exits with the run's recorded exit code, 2 when there is none", () => {
    expect(step('exit-code-of-results.sh', [reportsWith({ 'results.json': '{"exitCode":1}' })]).code).toBe(1);
    expect(step('exit-code-of-results.sh', [reportsWith({ 'results.json': 'not json' })]).code).toBe(2);
    expect(step('exit-code-of-results.sh', [reportsWith({})]).code).toBe(2);
  });
});

describe('the release workflow steps, run locally on a fresh clone', () => {
  it('produce the reviewer release page: conformance, both probes and the release profile, gated', (ctx) => {
    if (!findK6()) ctx.skip('k6 not found (npm test builds it with Go)');
    const reports = join(clone, 'reports');
    const output = join(temp('github-output-'), 'output');
    const summary = join(temp('github-summary-'), 'summary');
    const env: NodeJS.ProcessEnv = { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, FORCE_COLOR: '0' };
    // The local target: nothing of this machine's configuration.
    for (const name of ['CONFORMANCE_TARGET', 'API_BASE_URL', 'PETSTORE_BASE_URL', 'K6_REPORT_DIR'])
      env[name] = '';
    env.CONFORMANCE_REPORTS_DIR = 'reports';
    const check = step('run-release-check.sh', ['--profile', 'smoke'], env);
    expect(check.code, check.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe('exit-code=0\n');
    const tsv = readFileSync(join(reports, 'release-check.tsv'), 'utf8');
    expect(
      tsv
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(0, 3)),
    ).toEqual([
      ['conformance', '0', 'passed'],
      ['rate-limit', '0', 'passed'],
      ['flag-cache', '0', 'passed'],
      ['release', '0', 'passed'],
    ]);
    const page = readFileSync(join(reports, 'release.md'), 'utf8');
    expect(page).toMatch(/^# Release check: passed: every step passed/);
    for (const file of [
      'index.html',
      'k6-rate-limit.md',
      'k6-flag-cache.md',
      'k6-release.md',
      'k6-release.junit.xml',
      // The conformance run's traffic (release-check asks it for reports/run.har).
      'run.har',
    ]) {
      expect(page).toContain(`[${file}](${file})`);
      expect(existsSync(join(reports, file)), file).toBe(true);
    }
    // The conformance page lists the three load runs beside it.
    const html = readFileSync(join(reports, 'index.html'), 'utf8');
    for (const script of ['rate-limit', 'flag-cache', 'release']) expect(html).toContain(`k6-${script}.md`);
    expect(step('job-summary.sh', ['reports'], env).code).toBe(0);
    expect(readFileSync(summary, 'utf8')).toMatch(/^# Release check: passed/);
    const gate = step('release-gate.sh', ['reports'], env);
    expect(gate.code).toBe(0);
    expect(gate.stdout.match(/^::notice title=\S+ passed::/gm)).toHaveLength(4);
    mkdirSync(join(clone, 'reports'), { recursive: true });
  }, 900_000);
});
