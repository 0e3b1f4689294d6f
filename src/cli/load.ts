// npm run load:<rate-limit|flag-cache|release> [-- [--profile NAME] [k6 run options]]
// Runs a k6 script of load/ against the configured target: the production guard first, k6 found
// on PATH or in Go's bin directory, the reference server started for the local target, the target
// handed to k6 in its environment (never argv: secrets must not show in `ps`).
// Exit codes: k6's own, except 99 (thresholds crossed) -> 1; 2 for configuration, a refused
// target, a missing k6 or an unreachable target.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatProblems, guard, loadSettings, resolveTarget } from '../config/index.ts';
import { LOAD_USAGE, LoadUsageError, parseLoadArgs } from '../load/args.ts';
import { loadExit } from '../load/exit-code.ts';
import { findK6, K6_INSTALL_HINT } from '../load/find-k6.ts';
import { k6Environment, reportDirFrom } from '../load/k6-env.ts';
import { localServerPlan } from '../load/local-server.ts';
import { unreachableReason } from '../load/preflight.ts';
import { LOAD_SCRIPTS } from '../load/scripts.ts';
import type { RunningReferenceServer } from '../reference/index.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function fail(message: string): never {
  process.stderr.write(`load: ${message}\n`);
  process.exit(2);
}

function firstLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split('\n')[0] ?? 'unknown error';
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseLoadArgs>;
  try {
    args = parseLoadArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof LoadUsageError) fail(error.message);
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${LOAD_USAGE}\n`);
    return;
  }
  const script = LOAD_SCRIPTS[args.script];

  const loaded = loadSettings();
  if (!loaded.ok) {
    process.stderr.write(`${formatProblems(loaded.problems)}\n`);
    process.exit(2);
  }
  const settings = loaded.settings;
  const load = guard(settings, 'load');
  if (!load.allowed) fail(`refusing to run ${args.script} against ${settings.target}: ${load.reason}`);
  const pets = script.petstore && process.env.RELEASE_PETS?.trim() !== 'off';
  if (pets) {
    const petstore = guard(settings, 'petstore');
    if (!petstore.allowed) {
      fail(
        `refusing to run ${args.script} against ${settings.target}: ${petstore.reason}; set RELEASE_PETS=off`,
      );
    }
  }

  const k6 = findK6();
  if (!k6) fail(K6_INSTALL_HINT);

  let server: RunningReferenceServer | undefined;
  let defaults: Record<string, string> = {};
  if (settings.target === 'local') {
    let plan: ReturnType<typeof localServerPlan>;
    try {
      plan = localServerPlan(args.script, process.env);
    } catch (error) {
      fail(firstLine(error));
    }
    // Loaded only for the local target: faker's seeded data is the costly part of starting up.
    const { startReferenceServer } = await import('../reference/index.ts');
    server = await startReferenceServer(plan.options).catch((error: unknown) => fail(firstLine(error)));
    defaults = plan.defaults;
    process.stderr.write(`load: ${plan.description} at ${server.apiBaseUrl}\n`);
  }
  const config = resolveTarget(settings, server);

  const unreachable = await unreachableReason(config.apiBaseUrl, Math.min(config.requestTimeoutMs, 10_000));
  if (unreachable) {
    await server?.close();
    fail(`${unreachable} (API_BASE_URL of the ${config.target} target)`);
  }

  const reportDir = reportDirFrom(process.env);
  try {
    mkdirSync(reportDir, { recursive: true });
  } catch (error) {
    await server?.close();
    fail(`cannot create the report directory ${reportDir}: ${firstLine(error)}`);
  }

  const env = k6Environment(config, {
    base: process.env,
    reportDir,
    profile: args.profile,
    petstore: pets,
    control: script.control,
    defaults,
  });
  const child = spawn(k6, ['run', ...args.k6Args, `${REPO_ROOT}${script.file}`], {
    env,
    stdio: 'inherit',
  });
  // Ctrl+C reaches k6 from the terminal already (same process group); a second SIGINT would make
  // it skip its summary, so this process only waits. SIGTERM is sent to us alone: pass it on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`load: cannot start k6 (${k6}): ${firstLine(error)}\n`);
      resolve([2, null]);
    });
    child.once('exit', (c, s) => resolve([c, s]));
  });
  await server?.close();
  const exit = loadExit(code, signal);
  if (exit.message) process.stderr.write(`load: ${exit.message}\n`);
  process.exit(exit.code);
}

main().catch((error: unknown) => fail(firstLine(error)));
