// npm run load:<rate-limit|flag-cache|release> [-- [--profile NAME] [k6 run options]]
// Runs a k6 script of load/ against the configured target: the production guard first, k6 found
// on PATH or in Go's bin directory, the reference server started for the local target, the target
// handed to k6 in its environment (never argv: secrets must not show in `ps`).
// Exit codes: 0 passed, 1 failed, 2 configuration, a refused target, a missing k6 or an unreachable
// target, 3 inconclusive (the probe could not put its rule to the test), 130/143 interrupted
// (SIGINT/SIGTERM; the reports say so); other codes are k6's own (src/launcher/exit-code.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { envSwitch } from '../../load/lib/env.ts';
import { reportPaths } from '../../load/lib/summary/outputs.ts';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import { firstLine } from '../client/errors.ts';
import {
  applyEnvFile,
  formatProblems,
  guard,
  isProduction,
  loadSettings,
  resolveTarget,
  secretValues,
} from '../config/index.ts';
import { envArgs, LOAD_USAGE, LoadUsageError, parseLoadArgs } from '../launcher/args.ts';
import { buildPinnedK6 } from '../launcher/build-k6.ts';
import {
  type ClientCredential,
  CredentialsPoolError,
  readCredentialsPool,
} from '../launcher/credentials-pool.ts';
import {
  dashboardEnvironment,
  k6RunOptions,
  LIVE_DASHBOARD,
  removeStalePictures,
  writeDashboardConfig,
} from '../launcher/dashboard.ts';
import { K6_ABORTED_BY_SIGNAL, loadExit } from '../launcher/exit-code.ts';
import { findK6, K6_INSTALL_HINT } from '../launcher/find-k6.ts';
import { forwardSignals } from '../launcher/forward-signals.ts';
import { k6Environment, refusedK6Variables, reportDirFrom } from '../launcher/k6-env.ts';
import { localServerPlan } from '../launcher/local-server.ts';
import { planProblem } from '../launcher/plan-check.ts';
import { petsPreflight, targetUnreachable } from '../launcher/preflight.ts';
import {
  annotateReport,
  markInterrupted,
  readReport,
  reportVerdict,
  writeDidNotRun,
} from '../launcher/run-outcome.ts';
import { LOAD_SCRIPTS } from '../launcher/scripts.ts';
import type { RunningReferenceServer } from '../reference/index.ts';
import { conformanceBeside, readConformanceResults, refreshConformancePage } from '../report/load-runs.ts';
import { exitAfterOutput } from './exit.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function failNow(message: string): never {
  process.stderr.write(`load: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  // .env's values of RATE_*, FLAG_*, RELEASE_*, LOCAL_*, LOAD_PROFILE and the report folders count as
  // the environment's do: k6 and the plan check read them there (src/config/env-file.ts).
  applyEnvFile();
  let args: ReturnType<typeof parseLoadArgs>;
  try {
    args = parseLoadArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof LoadUsageError) failNow(error.message);
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${LOAD_USAGE}\n`);
    return;
  }
  const script = LOAD_SCRIPTS[args.script];

  const loaded = loadSettings();
  for (const warning of loaded.warnings ?? []) process.stderr.write(`${warning}\n`);
  if (!loaded.ok) {
    process.stderr.write(`${formatProblems(loaded.problems)}\n`);
    process.exit(2);
  }
  const settings = loaded.settings;
  const startedAt = new Date();
  // From here the run has a target: a refusal leaves its own "did not run" entry with the reason
  // (and the conformance page lists it), never the last run's verdict standing as this one's.
  let entryTarget = {
    name: settings.target,
    apiBaseUrl: settings.apiBaseUrl ?? '(the embedded reference server, not started)',
  };
  const fail = async (message: string): Promise<never> => {
    await didNotRun(args.script, entryTarget, message, startedAt, secretValues(settings));
    return failNow(message);
  };
  const k6Set = refusedK6Variables(process.env);
  if (k6Set.length > 0) {
    await fail(
      `refusing to start k6 with ${k6Set.join(', ')} set: k6 reads it, and it would change the run's verdict, its load or what it prints (unset it; the launcher passes k6 only the variables it chooses)`,
    );
  }
  const load = guard(settings, 'load');
  if (!load.allowed) return fail(`refusing to run ${args.script} against ${settings.target}: ${load.reason}`);
  // Read once, here: the profile and RELEASE_PETS reach k6 through the hand-over (the pet address
  // is withheld when off), never as variables set for it.
  const profile = args.profile ?? (process.env.LOAD_PROFILE?.trim() || undefined);
  // A switch, in the words every switch takes; a word none takes is refused (exit 2) by the catch.
  let pets = script.petstore && envSwitch(process.env, 'RELEASE_PETS', true);
  if (pets) {
    const petstore = guard(settings, 'petstore');
    if (!petstore.allowed) {
      return fail(
        `refusing to run ${args.script} against ${settings.target}: ${petstore.reason}; set RELEASE_PETS=off`,
      );
    }
  }

  // The control API exists only where the CLI starts the reference server, or one is configured.
  const controlAvailable =
    script.control &&
    !isProduction(settings) &&
    (settings.target === 'local' || settings.controlUrl !== undefined);
  // The environment k6 will read: --env values over .env and the environment.
  const planEnv = { ...process.env, ...envArgs(args.k6Args) };
  const problem = planProblem(args.script, planEnv, controlAvailable, profile);
  if (problem) return fail(`refusing to run ${args.script}: ${problem}`);

  let pool: ClientCredential[] | undefined;
  if (args.runners !== undefined) {
    try {
      pool = readCredentialsPool(process.env, args.runners);
    } catch (error) {
      if (error instanceof CredentialsPoolError) return fail(error.message);
      throw error;
    }
  }

  // Missing k6 and Go there: the pinned k6 is built as npm test's pretest builds it (build-k6.ts).
  const k6 = findK6() ?? (await k6Built());
  if (typeof k6 !== 'string') return fail(k6.problem);

  let server: RunningReferenceServer | undefined;
  let defaults: Record<string, string> = {};
  if (settings.target === 'local') {
    let plan: ReturnType<typeof localServerPlan>;
    try {
      plan = localServerPlan(args.script, planEnv, profile);
    } catch (error) {
      return fail(firstLine(error));
    }
    // Loaded only for the local target: faker's seeded data is the costly part of starting up.
    const { startReferenceServer } = await import('../reference/index.ts');
    // The local server knows the pool's clients too, so a split run with RELEASE_CREDENTIALS_FILE
    // (and LOCAL_RATE_LIMIT) shows each runner counted apart on this machine.
    const options = pool ? { ...plan.options, extraClients: pool } : plan.options;
    server = await startReferenceServer(options).catch((error: unknown) => fail(firstLine(error)));
    defaults = plan.defaults;
    process.stderr.write(`load: ${plan.description} at ${server.apiBaseUrl}\n`);
  }
  const config = resolveTarget(settings, server);
  entryTarget = { name: config.target, apiBaseUrl: config.apiBaseUrl };

  const unreachable = await targetUnreachable(config);
  if (unreachable) {
    await server?.close();
    return fail(`${unreachable} (API_BASE_URL of the ${config.target} target)`);
  }
  // A pet interface asking for credentials the spec does not show would fail every pet request:
  // its traffic is left out as RELEASE_PETS=off leaves it, and the reports say why (the conformance
  // run skips its pet checks alike).
  const petsCheck = pets ? await petsPreflight(config) : {};
  if (petsCheck.wrong) {
    await server?.close();
    return fail(petsCheck.wrong);
  }
  const petsLeftOut = petsCheck.leftOut;
  if (petsLeftOut) {
    pets = false;
    process.stderr.write(`load: ${petsLeftOut}, so the pet traffic is left out of this run\n`);
  }

  const reportDir = reportDirFrom(process.env);
  try {
    mkdirSync(reportDir, { recursive: true });
  } catch (error) {
    await server?.close();
    failNow(`cannot create the report directory ${reportDir}: ${firstLine(error)}`);
  }

  if (args.runners !== undefined) {
    const envOptions = { base: process.env, profile, petstore: pets, control: script.control, defaults };
    const secrets = [...secretValues(config), ...(pool ?? []).map((c) => c.clientSecret)];
    const { runSplitRelease } = await import('../launcher/split-release.ts');
    const result = await runSplitRelease({
      k6,
      scriptFile: `${REPO_ROOT}${script.file}`,
      k6Args: args.k6Args,
      runners: args.runners,
      reportDir,
      config,
      envOptions,
      pool,
      secrets,
      log: (line) => process.stderr.write(`load: ${line}\n`),
    }).catch(async (error: unknown): Promise<never> => {
      await server?.close();
      return fail(firstLine(error));
    });
    await server?.close();
    try {
      await besideTheRun(reportDir, args.script, result.report, secrets, petsLeftOut, {
        missing: `a run split over ${args.runners} runners has no k6 dashboard of the whole (each runner's would show its share only); the merged figures are in this summary`,
      });
    } catch (error) {
      process.stderr.write(`load: cannot add the conformance link to the reports: ${firstLine(error)}\n`);
    }
    process.stderr.write(`load: ${result.message}\n`);
    await exitAfterOutput(result.code);
    return;
  }

  const env = k6Environment(config, {
    base: process.env,
    reportDir,
    profile,
    petstore: pets,
    control: script.control,
    defaults,
  });
  const layout = writeDashboardConfig(args.script);
  Object.assign(
    env,
    dashboardEnvironment(reportDir, args.script, { live: args.live, configFile: layout.file }),
  );
  // In a log file k6's progress line would come every second, and once more after our summary.
  const quiet = !process.stdout.isTTY || !process.stderr.isTTY;
  if (args.live) {
    process.stderr.write(
      `load: live dashboard at http://${LIVE_DASHBOARD.host}:${LIVE_DASHBOARD.port} (k6 waits to exit while a browser shows it)\n`,
    );
  }
  // Its own process group: a terminal's Ctrl+C reaches only this process, which passes exactly one
  // SIGINT on (two would make k6 skip its summary); see forward-signals.ts.
  const k6Args = [...k6RunOptions(args.k6Args, quiet), ...args.k6Args];
  const child = spawn(k6, ['run', ...k6Args, `${REPO_ROOT}${script.file}`], {
    env,
    stdio: 'inherit',
    detached: true,
  });
  const signals = forwardSignals(
    (signal) => child.kill(signal),
    (signal) =>
      process.stderr.write(`load: ${signal}: stopping k6, which writes its summary (again to end at once)\n`),
  );
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`load: cannot start k6 (${k6}): ${firstLine(error)}\n`);
      resolve([2, null]);
    });
    child.once('exit', (c, s) => resolve([c, s]));
  });
  // Still listening while the reports are written: a late signal must not cut them short.
  const interruptedBy = signals.interruptedBy;
  await server?.close();
  layout.remove();
  const target = { name: config.target, apiBaseUrl: config.apiBaseUrl };
  const stopped =
    interruptedBy ?? (code === K6_ABORTED_BY_SIGNAL || code === null ? (signal ?? undefined) : undefined);
  // Only a report this run wrote: k6 refusing its arguments (exit 255, 104) writes none, and the
  // previous run's reports and pictures then stay as they were, its verdict not borrowed.
  let report = readReport(reportDir, args.script, startedAt);
  if (stopped !== undefined || code === K6_ABORTED_BY_SIGNAL) {
    try {
      report = markInterrupted(reportDir, args.script, target, {
        ...(stopped ? { signal: stopped } : {}),
        startedAt,
      });
    } catch (error) {
      process.stderr.write(
        `load: cannot mark the reports interrupted in ${reportDir}: ${firstLine(error)}\n`,
      );
    }
  }
  if (report) {
    removeStalePictures(reportDir, args.script, startedAt);
    try {
      report = await besideTheRun(reportDir, args.script, report, secretValues(config), petsLeftOut);
    } catch (error) {
      process.stderr.write(`load: cannot add the dashboard link to the reports: ${firstLine(error)}\n`);
    }
  }
  if (!report && stopped === undefined && code !== 0 && code !== 99) {
    // k6 refused its arguments or its script before any summary (exit 255, 104, 107...).
    const refused = loadExit(code, signal).message ?? `k6 exited with code ${code}`;
    await didNotRun(
      args.script,
      target,
      `${refused}, before the run started (see k6's lines above)`,
      startedAt,
      secretValues(config),
    );
  }
  const exit = loadExit(code, signal, {
    verdict: reportVerdict(report),
    verdictReason: report?.verdictReason,
    interruptedBy: stopped,
  });
  if (exit.message) process.stderr.write(`load: ${exit.message}\n`);
  await exitAfterOutput(exit.code);
}

/** `npm run load:<script> -- <its arguments>`, each secret value hidden (an --env may carry one). */
function rerunCommand(argv: readonly string[], secrets: readonly string[]): string {
  const [script, ...rest] = argv;
  const quoted = rest.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  return createSecretFilter(secrets).text(
    `npm run load:${script}${quoted.length ? ` -- ${quoted.join(' ')}` : ''}`,
  );
}

/**
 * A run that never started: its "did not run" entry in the reports folder (run-outcome.ts), and the
 * conformance page of its target rendered again to list it. Never stops the refusal it records.
 */
async function didNotRun(
  script: string,
  target: LoadReport['target'],
  reason: string,
  startedAt: Date,
  secrets: readonly string[],
): Promise<void> {
  const reportDir = reportDirFrom(process.env);
  const filter = createSecretFilter(secrets);
  try {
    mkdirSync(reportDir, { recursive: true });
    writeDidNotRun(reportDir, script, target, filter.text(reason), startedAt);
    if (await refreshConformancePage(reportDir, target, filter)) {
      process.stderr.write(
        `load: listed as "did not run" in the conformance report ${reportDir}/index.html\n`,
      );
    }
  } catch (error) {
    process.stderr.write(`load: cannot write the "did not run" entry in ${reportDir}: ${firstLine(error)}\n`);
  }
}

/** The pinned k6 built with Go (one line says so first), or why not with how to install it. */
async function k6Built(): Promise<string | { problem: string }> {
  const result = await buildPinnedK6((line) => process.stderr.write(`load: k6 not found: ${line}\n`));
  if ('built' in result) {
    process.stderr.write(`load: k6 built in ${result.seconds} s at ${result.built}\n`);
    return result.built;
  }
  return { problem: 'noGo' in result ? K6_INSTALL_HINT : `${result.failed}; ${K6_INSTALL_HINT}` };
}

/**
 * The dashboard report, the conformance run beside this one and why the pets were left out, added
 * to the run's reports; the
 * conformance page of the folder lists the run when it is of the same target.
 */
async function besideTheRun(
  reportDir: string,
  script: string,
  report: LoadReport,
  secrets: readonly string[],
  petsLeftOut: string | undefined,
  noDashboard?: { missing: string },
): Promise<LoadReport> {
  const { dashboard } = reportPaths(reportDir, script);
  const written = !noDashboard && existsSync(dashboard);
  if (noDashboard) removeStalePictures(reportDir, script);
  const annotated = annotateReport(reportDir, script, report, {
    dashboard: written
      ? { file: basename(dashboard) }
      : (noDashboard ?? { missing: 'k6 wrote none (it writes none for a run shorter than two seconds)' }),
    conformance: conformanceBeside(readConformanceResults(reportDir), report.target),
    ...(petsLeftOut ? { petsLeftOut } : {}),
    rerun: rerunCommand(process.argv.slice(2), secrets),
  });
  if (written) process.stderr.write(`load: dashboard report ${dashboard}\n`);
  if (await refreshConformancePage(reportDir, report.target, createSecretFilter(secrets))) {
    process.stderr.write(`load: listed in the conformance report ${reportDir}/index.html\n`);
  }
  return annotated;
}

main().catch((error: unknown) => failNow(firstLine(error)));
