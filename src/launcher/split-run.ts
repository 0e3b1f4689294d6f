// A load script as N k6 processes on consecutive execution segments (the split each k6-operator
// runner pod runs), started paused and resumed together through k6's REST API (each runner on its
// own loopback port), so they share one start: k6 runs setup() only once resumed. Each runner writes
// its raw samples (k6 --out json) and a runner.json into <reportDir>/runners/<name>/, the layout
// `npm run merge:load` reads; runner.json is written before k6 starts (exitCode null) and again when
// it ends, so a runner killed with the launcher still reads as "did not end".
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createSecretFilter } from '../../common/secret-filter.ts';
import type { RunnerMeta } from './merge/read-dirs.ts';
import { executionSegments } from './merge/samples.ts';

/** Generous: 4 k6 processes initialising at once on a busy 2-core machine take seconds, not this. */
export const READY_TIMEOUT_MS = 120_000;

export interface SplitRunOptions {
  k6: string;
  scriptFile: string;
  /** The user's `k6 run` options (already checked: no --out, no --address). */
  k6Args: readonly string[];
  runners: number;
  /** Where runners/<name>/ go. */
  reportDir: string;
  /** The environment of runner i (0-based), its own credential included. */
  envFor(index: number, runnerDir: string): NodeJS.ProcessEnv;
  /** What no log may show. */
  secrets: readonly string[];
  /** Says which credential a runner uses, without its secret (runner.json). */
  credentialOf?(index: number): string;
  /** The target's name and address, for merge:load's report (never a credential). */
  target?: { name: string; apiBaseUrl: string };
  readyTimeoutMs?: number;
  log(line: string): void;
}

export interface RunnerEnd {
  name: string;
  segment: string;
  dir: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why it never ran, when it never became ready. */
  notStarted?: string;
}

export interface SplitRun {
  runners: Promise<RunnerEnd[]>;
  /** Passes a signal to every runner (the launcher was interrupted). */
  signal(signal: NodeJS.Signals): void;
}

/** A free loopback port (closed again at once; k6 binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The script's thresholds as k6 reads them (`k6 inspect`): what runner.json carries for the merge. */
export function inspectThresholds(
  k6: string,
  scriptFile: string,
  k6Args: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<string, string[]> {
  const envArgs: string[] = [];
  for (let i = 0; i < k6Args.length; i++) {
    const a = k6Args[i] as string;
    if (a === '--env' || a === '-e') envArgs.push('--env', k6Args[++i] ?? '');
    else if (a.startsWith('--env=')) envArgs.push(a);
  }
  // inspect reads no system variable unless told (run does): the hand-over is one.
  const run = spawnSync(k6, ['inspect', '--include-system-env-vars', ...envArgs, scriptFile], {
    env,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    const said = run.stderr.trim().split('\n').at(-1) ?? '';
    throw new Error(`k6 inspect could not read the script's thresholds (exit ${run.status}): ${said}`);
  }
  const options = JSON.parse(run.stdout) as { thresholds?: Record<string, string[]> | null };
  return options.thresholds ?? {};
}

async function status(port: number): Promise<{ paused: boolean } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/status`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: { attributes?: { paused?: boolean } } };
    return { paused: body.data?.attributes?.paused === true };
  } catch {
    return undefined;
  }
}

async function resume(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } }),
      signal: AbortSignal.timeout(10_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

function writeMeta(dir: string, meta: RunnerMeta & Record<string, unknown>): void {
  const path = join(dir, 'runner.json');
  // Renamed into place: a reader (merge:load on a shared volume) never sees half a file.
  writeFileSync(`${path}.tmp`, `${JSON.stringify(meta, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

interface Started {
  /** Writes what is left of the runner's output to its log. */
  flush(): void;
  name: string;
  segment: string;
  dir: string;
  base: RunnerMeta & Record<string, unknown>;
  ready: Promise<boolean>;
  ended: Promise<[number | null, NodeJS.Signals | null]>;
  log: WriteStream;
}

export function startSplitRun(options: SplitRunOptions, thresholds: Record<string, string[]>): SplitRun {
  const { segments, sequence } = executionSegments(options.runners);
  const filter = createSecretFilter(options.secrets);
  const children: (ChildProcess | undefined)[] = [];
  let stopping: NodeJS.Signals | undefined;

  const one = (index: number, port: number): Started => {
    const name = `runner-${index + 1}`;
    const segment = segments[index] as string;
    const dir = join(options.reportDir, 'runners', name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const base: Started['base'] = {
      exitCode: null,
      name,
      segment,
      sequence,
      thresholds,
      ...(options.credentialOf ? { credential: options.credentialOf(index) } : {}),
      ...(options.target ? { target: options.target } : {}),
    };
    writeMeta(dir, { ...base, exitCode: null, state: 'starting' });
    const args = [
      'run',
      '--paused',
      `--address=127.0.0.1:${port}`,
      `--execution-segment=${segment}`,
      `--execution-segment-sequence=${sequence}`,
      `--out=json=${join(dir, 'samples.jsonl')}`,
      '--quiet',
      ...options.k6Args,
      options.scriptFile,
    ];
    // Own process group: the launcher alone decides which signal each runner gets.
    const child = spawn(options.k6, args, {
      env: options.envFor(index, dir),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children[index] = child;
    writeMeta(dir, { ...base, exitCode: null, state: 'started', pid: child.pid ?? null });
    const log = createWriteStream(join(dir, 'k6.log'));
    // Filtered line by line: a secret split across two chunks would pass a per-chunk filter.
    const pending = { stdout: '', stderr: '' };
    const pipe = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const lines = (pending[stream] + chunk.toString()).split('\n');
      pending[stream] = lines.pop() ?? '';
      for (const line of lines) log.write(`${filter.text(line)}\n`);
    };
    child.stdout?.on('data', pipe('stdout'));
    child.stderr?.on('data', pipe('stderr'));
    const flush = () => {
      for (const stream of ['stdout', 'stderr'] as const) {
        if (pending[stream] !== '') log.write(filter.text(pending[stream]));
        pending[stream] = '';
      }
    };
    const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      child.once('error', () => resolve([null, null]));
      // close, not exit: its output is read to the end first.
      child.once('close', (c, s) => resolve([c, s]));
    });
    let exited = false;
    void ended.then(() => {
      exited = true;
    });
    const deadline = Date.now() + (options.readyTimeoutMs ?? READY_TIMEOUT_MS);
    const ready = (async () => {
      while (!exited && Date.now() < deadline && stopping === undefined) {
        const s = await status(port);
        if (s?.paused) return true;
        await new Promise((r) => setTimeout(r, 200));
      }
      return false;
    })();
    return { name, segment, dir, base, ready, ended, log, flush };
  };

  const runners = (async () => {
    const ports = await Promise.all(segments.map(() => freePort()));
    const started = ports.map((port, i) => one(i, port));
    const ready = await Promise.all(started.map((r) => r.ready));
    const notStarted = new Map<number, string>();
    // Every runner that is ready is resumed at once; one that is not is stopped and named.
    await Promise.all(
      started.map(async (_r, i) => {
        if (stopping !== undefined) return;
        if (!ready[i]) {
          notStarted.set(i, 'it was not ready to start (paused) in time');
          children[i]?.kill('SIGKILL');
          return;
        }
        if (!(await resume(ports[i] as number))) {
          notStarted.set(i, "k6's REST API refused to resume it");
          children[i]?.kill('SIGKILL');
        }
      }),
    );
    if (stopping === undefined) options.log(`${started.length} runners resumed together`);
    return Promise.all(
      started.map(async (r, i): Promise<RunnerEnd> => {
        const [exitCode, signal] = await r.ended;
        r.flush();
        await new Promise<void>((resolve) => r.log.end(resolve));
        const why = notStarted.get(i);
        // A runner ended by a signal never reached its end: no exit code to vouch for its share.
        writeMeta(r.dir, {
          ...r.base,
          exitCode: signal !== null ? null : exitCode,
          ...(signal ? { signal } : {}),
          state: why ? `not started: ${why}` : 'ended',
        });
        return {
          name: r.name,
          segment: r.segment,
          dir: r.dir,
          exitCode,
          signal,
          ...(why ? { notStarted: why } : {}),
        };
      }),
    );
  })();

  return {
    runners,
    signal(signal) {
      stopping ??= signal;
      for (const child of children) {
        if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
      }
    },
  };
}
