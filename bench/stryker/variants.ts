// The variant pass of `npm run mutation`: a survivor of the default conformance run whose code only
// another open choice (or size, or status) of the reference server reaches is judged again, against
// the conformance run of that tolerance variant, so choice code is measured, not excused. Stryker's
// command runner runs one command for every mutant, so this pass applies each mutant itself: in a
// sandbox copy of the project (node_modules linked), one mutated file at a time, restored after.
// Each variant is first run unmutated in the sandbox: a variant that fails there would make every
// "kill" meaningless, so the pass stops instead.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HANG_EXIT } from './isolated-run.ts';
import { applyMutant, mutantKey, mutatedText, type Survivor, type VariantResult } from './triage.ts';

/** The settings of a mutant's conformance run (stryker.config.json's command, the same judge). */
const RUN_ENV = {
  CONFORMANCE_SLOW: '0',
  CONFORMANCE_STRICT: '1',
  CONFORMANCE_GENERATED: '300',
  CONFORMANCE_SEED: '20261126',
  NO_COLOR: '1',
};
/**
 * A run that takes this long is stopped: a timeout, reported apart (a hang is no verdict of a
 * check). variant-run.ts stops its own run sooner (VARIANT_BOUND_MS, exit HANG_EXIT); this is the
 * last resort.
 */
const RUN_TIMEOUT_MS = 180_000;
const SKIP = new Set(['node_modules', 'reports', '.git', '.stryker-tmp', '.tools']);

interface Run {
  code: number | null;
  /** Stopped at RUN_TIMEOUT_MS: no verdict. */
  timedOut: boolean;
  lastLine: string;
}

function runVariant(sandbox: string, variant: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stryker/variant-run.ts', variant], {
      cwd: sandbox,
      env: { ...process.env, ...RUN_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // SIGTERM first: variant-run.ts then stops the server and the run it started (their own groups).
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const timedOut = signal !== null || code === HANG_EXIT;
      const lastLine =
        signal !== null
          ? `stopped after ${RUN_TIMEOUT_MS / 1000} s`
          : (output.trim().split('\n').at(-1) ?? '');
      done({ code, timedOut, lastLine });
    });
  });
}

export function makeSandbox(root: string): string {
  const sandbox = mkdtempSync(join(tmpdir(), 'mutation-variants-'));
  cpSync(root, sandbox, {
    recursive: true,
    filter: (src) => !SKIP.has(src.slice(root.length + 1).split('/')[0] ?? ''),
  });
  symlinkSync(join(root, 'node_modules'), join(sandbox, 'node_modules'));
  return sandbox;
}

/**
 * Runs every survivor whose triage names a variant against that variant, `concurrency` sandboxes
 * at once, and says how each ended. Throws when a variant fails with no mutant applied.
 */
export async function variantPass(
  survivors: readonly Survivor[],
  options: { root: string; concurrency: number; log: (line: string) => void },
): Promise<VariantResult[]> {
  const todo = survivors.filter((s) => s.entry?.variant);
  if (todo.length === 0) return [];
  const root = resolve(options.root);
  const sandboxes = Array.from({ length: Math.max(1, Math.min(options.concurrency, todo.length)) }, () =>
    makeSandbox(root),
  );
  try {
    const variants = [...new Set(todo.map((s) => s.entry?.variant ?? ''))];
    for (const [i, variant] of variants.entries()) {
      const sandbox = sandboxes[i % sandboxes.length] ?? '';
      const baseline = await runVariant(sandbox, variant);
      if (baseline.code !== 0)
        throw new Error(
          `${variant} fails with no mutant applied (${baseline.lastLine}): no variant kill would mean anything`,
        );
    }
    options.log(`mutation: variant pass: ${todo.length} survivors against ${variants.length} variants`);
    const results: VariantResult[] = [];
    let next = 0;
    await Promise.all(
      sandboxes.map(async (sandbox) => {
        for (let i = next++; i < todo.length; i = next++) {
          const s = todo[i] as Survivor;
          const variant = s.entry?.variant ?? '';
          const path = join(sandbox, s.file);
          const source = readFileSync(path, 'utf8');
          if (mutatedText(source, s.location) !== s.original) {
            options.log(`  not run: ${s.file}:${s.line} moved since its report was made`);
            continue;
          }
          writeFileSync(path, applyMutant(source, s.location, s.replacement));
          try {
            const run = await runVariant(sandbox, variant);
            const result = {
              key: mutantKey(s),
              variant,
              killed: !run.timedOut && run.code !== 0,
              ...(run.timedOut ? { timedOut: true } : {}),
              detail: run.lastLine,
            };
            results.push(result);
            options.log(
              `  ${result.killed ? 'killed' : run.timedOut ? 'timed out' : 'survived'} under ${variant}: ${s.file}:${s.line} \`${s.original.split('\n')[0]}\` -> \`${s.replacement.split('\n')[0]}\` (${run.lastLine.slice(0, 100)})`,
            );
          } finally {
            writeFileSync(path, source);
          }
        }
      }),
    );
    return results;
  } finally {
    for (const sandbox of sandboxes) rmSync(sandbox, { recursive: true, force: true });
  }
}
