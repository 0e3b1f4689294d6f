// npm run release-check [-- --profile NAME] [--probe-profile NAME]
// The reviewer's release page in one command: the conformance suite, both load probes
// (load:rate-limit, load:flag-cache) and the release profile, one after the other against the
// configured target, into one reports folder; index.html lists the load runs beside the conformance
// run, and release.md (with release-check.tsv for the workflow's shell steps) says what each step's
// exit code means and gives the release's verdict. Every step runs whatever the one before said, so
// the page is whole; an interruption stops at the step it reached.
// Exit codes: 0 every step passed, 1 a step failed (a MUST check, a threshold), 2 a step could not
// run, 3 nothing failed but a probe proved nothing, 130/143 interrupted (src/launcher/release-verdict.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { SIGNAL_EXIT_CODES, signalOfExit } from '../../common/exit-codes.ts';
import { firstLine } from '../client/errors.ts';
import { applyEnvFile, loadSettings } from '../config/index.ts';
import {
  releaseExitCode,
  releaseMarkdown,
  releaseWords,
  type StepName,
  type StepResult,
  stepsTsv,
  stepVerdict,
} from '../launcher/release-verdict.ts';
import { reportsDir } from '../report/reports-dir.ts';
import { exitAfterOutput } from './exit.ts';
import { nodeArgsFor } from './node-command.ts';

const USAGE = `usage: npm run release-check [-- --profile NAME] [--probe-profile NAME]
  Runs npm run conformance, load:rate-limit, load:flag-cache and load:release against the
  configured target (.env and the environment, docs/configuration.md) into one reports folder
  (CONFORMANCE_REPORTS_DIR, default reports), then writes release.md and release-check.tsv there.
  --profile NAME        the release profile (smoke, load, stress, soak; default smoke)
  --probe-profile NAME  the probes' profile (default smoke against the local target, else the
                        probes' own default: a remote flag-cache smoke run is refused)
exit codes: 0 passed, 1 a step failed (do not release), 2 a step could not run,
  3 nothing failed but a probe proved nothing (not proved), 130/143 interrupted
docs: docs/load.md (One page per release)`;

function fail(message: string): never {
  process.stderr.write(`release-check: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        profile: { type: 'string' },
        'probe-profile': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(firstLine(error));
  }
}

/** The conformance run's exchanges as HAR 1.2, secrets replaced (its CI default name). */
const HAR_FILE = 'run.har';

interface Step {
  name: StepName;
  script: string;
  args: string[];
  command: string;
}

function stepsOf(profile: string, probeProfile: string | undefined, dir: string): Step[] {
  const probe = probeProfile ? ['--profile', probeProfile] : [];
  const load = (name: Exclude<StepName, 'conformance'>, args: string[]): Step => ({
    name,
    script: 'src/cli/load.ts',
    args: [name, ...args],
    command: `npm run load:${name}${args.length ? ` -- ${args.join(' ')}` : ''}`,
  });
  return [
    // The run's traffic beside its reports, for the reviewer (release.md links every *.har there).
    {
      name: 'conformance',
      script: 'src/cli/conformance.ts',
      args: ['--har', join(dir, HAR_FILE)],
      command: `npm run conformance -- --har ${join(dir, HAR_FILE)}`,
    },
    load('rate-limit', probe),
    load('flag-cache', probe),
    load('release', ['--profile', profile]),
  ];
}

/** Runs one step as its npm script would, its stderr passed on and its last line kept. */
function runStep(
  step: Step,
  env: NodeJS.ProcessEnv,
  onChild: (kill: (signal: NodeJS.Signals) => void) => void,
): Promise<StepResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgsFor(step.script), ...step.args], {
      env,
      stdio: ['inherit', 'inherit', 'pipe'],
    });
    onChild((signal) => child.kill(signal));
    let tail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    });
    const done = (exitCode: number) => {
      const lines = stripVTControlCharacters(tail)
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const lastLine = lines.at(-1)?.slice(0, 300);
      resolve({ name: step.name, command: step.command, exitCode, ...(lastLine ? { lastLine } : {}) });
    };
    child.once('error', (error) => {
      tail += `\ncannot start ${step.command}: ${firstLine(error)}`;
      done(2);
    });
    child.once('exit', (code, signal) =>
      done(code ?? SIGNAL_EXIT_CODES[signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT']),
    );
  });
}

/** release.md and release-check.tsv, each replaced whole (a reader never sees half a file). */
function writePage(dir: string, steps: StepResult[], run: { startedAt: string; target: string }) {
  mkdirSync(dir, { recursive: true });
  const har = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.har'))
        .sort()
    : [];
  const page = releaseMarkdown(steps, (f) => existsSync(join(dir, f)), har, {
    ...run,
    finishedAt: new Date().toISOString(),
  });
  for (const [file, text] of [
    ['release.md', page],
    ['release-check.tsv', stepsTsv(steps)],
  ] as const) {
    const temporary = join(dir, `.${file}.${process.pid}.tmp`);
    writeFileSync(temporary, text);
    renameSync(temporary, join(dir, file));
  }
}

async function main(): Promise<void> {
  applyEnvFile();
  const args = parse();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const loaded = loadSettings();
  const target = loaded.ok ? loaded.settings.target : 'local';
  const profile = args.profile ?? 'smoke';
  const probeProfile = args['probe-profile'] ?? (target === 'local' ? 'smoke' : undefined);
  const dir = reportsDir();
  // One folder for all four, so index.html lists the load runs beside the conformance run.
  const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_REPORTS_DIR: dir, K6_REPORT_DIR: dir };
  const startedAt = new Date().toISOString();

  let kill: ((signal: NodeJS.Signals) => void) | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    kill?.(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const results: StepResult[] = [];
  for (const step of stepsOf(profile, probeProfile, dir)) {
    if (interrupted) break;
    process.stderr.write(`release-check: ${step.command}\n`);
    const result = await runStep(step, env, (k) => {
      kill = k;
    });
    kill = undefined;
    results.push(result);
    writePage(dir, results, { startedAt, target });
    if (signalOfExit(result.exitCode)) interrupted ??= signalOfExit(result.exitCode);
  }
  const exitCode = releaseExitCode(results);
  for (const r of results) {
    process.stdout.write(`release-check: ${r.name}: ${stepVerdict(r.exitCode)} (exit ${r.exitCode})\n`);
  }
  process.stdout.write(
    `release-check: ${releaseWords(exitCode)} (exit ${exitCode}); page ${join(dir, 'release.md')}, ${join(dir, 'index.html')}\n`,
  );
  await exitAfterOutput(exitCode);
}

main().catch((error: unknown) => fail(firstLine(error)));
