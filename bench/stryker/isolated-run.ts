// One mutant's conformance run with the reference server in a process of its own (stryker.config.json's
// command, so also the kill confirmation's). Embedded, the server shares the run's process: a mutant
// that loops forever stops the whole run (Stryker's timeout, not a kill) and one that crashes it ends
// the run before any check reports. Here the server is a child (`src/cli/reference-server.ts
// --control`, the mutant's code, Stryker's active-mutant variable inherited), the run judges it as
// staging through the addresses and demo credentials it prints, and the server is killed afterwards:
// a hang is the suite's timeout ("the server hangs"), a crash the liveness checks failing.
// Where the machine has IPv6 loopback the server listens dual-stack (`::`), so an IPv4 caller is seen
// as ::ffff:127.0.0.1, as on a real dual-stack host; the run still connects to 127.0.0.1 only. One
// listener cannot show every way of reading the caller's address (a mutant that cuts 7 characters
// off every address is right on a dual-stack listener and wrong on an IPv4 one, a mutant that keeps
// the ::ffff: prefix the other way round), so a passing dual-stack run is followed by the checks that
// pin a key to the caller's own address (ADDRESS_CHECKS) against an IPv4-only listener.
// Exit: the conformance run's code; 1 when the server never listened, 124 when the runs outlived their
// bound (MUTATION_RUN_BOUND_S, default 240 s: a hang is never a pass).
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether this machine can listen on the IPv6 loopback (then `::` is a dual-stack listener). */
export function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(0, '::1', () => probe.close(() => done(true)));
  });
}

/** The variables the reference server prints once listening ("  NAME=value"), or undefined before. */
export function printedVariables(output: string): Record<string, string> | undefined {
  if (!output.includes('Ctrl+C stops it.')) return undefined;
  const vars: Record<string, string> = {};
  for (const m of output.matchAll(/^ {2}([A-Z_]+)=(\S+)/gm)) vars[m[1] as string] = m[2] as string;
  const pinned = /\(pinned to (\S+?):? refused from here\)/.exec(output)?.[1];
  if (pinned) vars.PINNED_API_KEY_ADDRESS = pinned;
  return vars;
}

/** The run's environment: the server's addresses and credentials, judged as staging. */
export function runEnvironment(printed: Record<string, string>, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const wanted = [
    'API_BASE_URL',
    'PETSTORE_BASE_URL',
    'REFERENCE_CONTROL_URL',
    'CLIENT_ID',
    'CLIENT_SECRET',
    'API_KEY_ID',
    'API_KEY_SECRET',
    'PINNED_API_KEY_ID',
    'PINNED_API_KEY_SECRET',
    'PINNED_API_KEY_ADDRESS',
  ];
  const missing = wanted.filter((n) => printed[n] === undefined);
  if (missing.length) throw new Error(`the reference server printed no ${missing.join(', ')}`);
  const out: NodeJS.ProcessEnv = { ...env, CONFORMANCE_TARGET: 'staging' };
  for (const n of wanted) out[n] = printed[n];
  return out;
}

/** The checks whose verdict depends on the address family the server sees the run at (KEY-03). */
export const ADDRESS_CHECKS = 'KEY-PINNED-OWN-*';

/** Every child process group still running, stopped when this process is told to stop. */
const running = new Set<ChildProcess>();

const killGroup = (child: ChildProcess) => {
  try {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

export interface IsolatedRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  boundMs: number;
  /** How long the server may take to listen. */
  startMs?: number;
  host?: string;
  log?: (line: string) => void;
  /** The run's command (tests replace the conformance CLI). */
  run?: string[];
  /** More flags for the server (a tolerance variant's options, src/cli/reference-server-args.ts). */
  serverArgs?: string[];
  /** More flags for the first pass's run (a variant's areas); the address checks' pass takes none. */
  runArgs?: string[];
}

/** The exit code of a run stopped at its bound: a hang, never a pass (a kill to Stryker; the variant pass counts it apart). */
export const HANG_EXIT = 124;

/**
 * Starts the server, runs the suite against it, stops both; resolves to the exit code. Dual-stack
 * where the machine allows (or on `host`), then, if that passed, the address checks on IPv4 only.
 */
export async function isolatedRun(o: IsolatedRunOptions): Promise<number> {
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const host = o.host ?? ((await hasIpv6Loopback()) ? '::' : '127.0.0.1');
  const deadline = Date.now() + o.boundMs;
  const first = await onePass(o, log, host, o.runArgs ?? [], deadline);
  if (first !== 0 || host !== '::') return first;
  log(`mutation run: passed on a dual-stack listener; ${ADDRESS_CHECKS} again on 127.0.0.1 only`);
  return onePass(o, log, '127.0.0.1', ['--check', ADDRESS_CHECKS], deadline);
}

async function onePass(
  o: IsolatedRunOptions,
  log: (line: string) => void,
  host: string,
  select: string[],
  deadline: number,
): Promise<number> {
  const env = o.env ?? process.env;
  const server = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/reference-server.ts',
      '--port',
      '0',
      '--host',
      host,
      '--control',
      ...(o.serverArgs ?? []),
    ],
    { cwd: o.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(server);
  let output = '';
  let errors = '';
  server.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  server.stderr?.on('data', (d: Buffer) => {
    errors += d.toString();
  });
  const serverExit = new Promise<number | null>((done) => server.once('exit', (code) => done(code)));
  try {
    const printed = await new Promise<Record<string, string> | undefined>((done) => {
      const timer = setTimeout(() => done(undefined), o.startMs ?? 60_000);
      const look = () => {
        const vars = printedVariables(output);
        if (vars) {
          clearTimeout(timer);
          done(vars);
        }
      };
      server.stdout?.on('data', look);
      void serverExit.then(() => {
        clearTimeout(timer);
        done(printedVariables(output));
      });
    });
    if (!printed || server.exitCode !== null) {
      const why = errors.trim().split('\n').at(-1) ?? '';
      log(`mutation run: the reference server did not start${why ? `: ${why}` : ''}`);
      return 1;
    }
    const run = spawn(
      (o.run ?? [process.execPath])[0] as string,
      [
        ...(o.run?.slice(1) ?? ['--import', 'vitest/node', '--import', 'tsx', 'src/cli/conformance.ts']),
        ...select,
      ],
      { cwd: o.cwd, env: runEnvironment(printed, env), detached: true, stdio: 'inherit' },
    );
    running.add(run);
    void serverExit.then((code) => {
      if (run.exitCode === null) log(`mutation run: the reference server exited (${code}) during the run`);
    });
    return await new Promise<number>((done) => {
      const timer = setTimeout(
        () => {
          log(`mutation run: no verdict within ${o.boundMs / 1000} s: the server (or the run) hangs`);
          killGroup(run);
          done(HANG_EXIT);
        },
        Math.max(0, deadline - Date.now()),
      );
      run.once('exit', (code, signal) => {
        clearTimeout(timer);
        running.delete(run);
        done(code ?? (signal ? 1 : 0));
      });
    });
  } finally {
    killGroup(server);
    running.delete(server);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Stopped from outside (Stryker, Ctrl+C): the children are in groups of their own, so stop them too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of running) killGroup(child);
      process.exit(1);
    });
  }
  const bound = Number(process.env.MUTATION_RUN_BOUND_S ?? 240);
  isolatedRun({ boundMs: (Number.isFinite(bound) && bound > 0 ? bound : 240) * 1000 }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`mutation run: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
