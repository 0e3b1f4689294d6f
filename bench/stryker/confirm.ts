// The kill confirmation of `npm run mutation`: every mutant Stryker reports killed is run again, in a
// sandbox copy of the project holding that one mutant, by the same conformance command; a kill that
// does not reproduce (the run passes) is reported apart and not counted as a kill (issue 29).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyMutant, mutatedText } from './triage.ts';

export interface Kill {
  file: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  replacement: string;
  original: string;
  mutator?: string;
}

/** stryker.config.json's command: one conformance run. */
function command(): string {
  const config = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as {
    commandRunner: { command: string };
  };
  return config.commandRunner.command;
}

function run(cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('sh', ['-c', command()], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** What killed a mutant, from its conformance run's closing lines (the console's "failed ID [...]" lines). */
export interface KilledBy {
  exit: number | null;
  checks: string[];
  /** "... and N more in the reports": the console lists only the first ten failures. */
  more: number;
  /** The run's last non-empty line (its verdict, or the reason it stopped). */
  last: string;
}

export function killedBy(code: number | null, output: string): KilledBy {
  const lines = output.split('\n');
  const checks = lines.flatMap((l) => /^failed (\S+) \[/.exec(l)?.slice(1, 2) ?? []);
  const more = Number(/^\.\.\. and (\d+) more in the reports/m.exec(output)?.[1] ?? 0);
  const last =
    lines
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? '';
  return { exit: code, checks, more, last };
}

export const killedByText = (k: KilledBy) =>
  k.checks.length
    ? `exit ${k.exit}, failed ${k.checks.join(', ')}${k.more ? ` and ${k.more} more` : ''}`
    : `exit ${k.exit}, no failed check listed: ${k.last.slice(0, 160)}`;

/**
 * The kills that did not reproduce (their conformance run passed with the mutant applied), each
 * sandbox taking the next kill as it finishes one (one sandbox per core a run may use).
 */
export async function unconfirmedKills(
  kills: readonly Kill[],
  sandboxes: readonly string[],
  log: (line: string) => void,
  timeoutMs = 180_000,
  /** Filled with what each reproduced kill's run failed, keyed by `file:line:column replacement`. */
  by?: Map<string, KilledBy>,
): Promise<Kill[]> {
  const apart: Kill[] = [];
  let next = 0;
  const confirmIn = async (sandbox: string) => {
    for (let i = next++; i < kills.length; i = next++) {
      const k = kills[i] as Kill;
      const path = join(sandbox, k.file);
      const source = readFileSync(path, 'utf8');
      if (mutatedText(source, k.location) !== k.original) {
        log(`  not confirmed: ${k.file}:${k.location.start.line} moved since its report`);
        apart.push(k);
        continue;
      }
      writeFileSync(path, applyMutant(source, k.location, k.replacement));
      try {
        const { code, output } = await run(sandbox, timeoutMs);
        const at = `${k.file}:${k.location.start.line}:${k.location.start.column}`;
        if (code === 0) {
          log(`  kill not reproduced: ${at} -> \`${k.replacement}\``);
          apart.push(k);
        } else {
          const what = killedBy(code, output);
          by?.set(`${at} ${k.replacement}`, what);
          log(
            `  kill confirmed: ${at} \`${k.original.split('\n')[0]}\` -> \`${k.replacement.split('\n')[0]}\`: ${killedByText(what)}`,
          );
        }
      } finally {
        writeFileSync(path, source);
      }
    }
  };
  await Promise.all(sandboxes.map(confirmIn));
  return apart;
}
