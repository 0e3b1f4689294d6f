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
}

/** stryker.config.json's command: one conformance run. */
function command(): string {
  const config = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as {
    commandRunner: { command: string };
  };
  return config.commandRunner.command;
}

function run(cwd: string, timeoutMs: number): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn('sh', ['-c', command()], { cwd, stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
}

/** The kills that did not reproduce (their conformance run passed with the mutant applied). */
export async function unconfirmedKills(
  kills: readonly Kill[],
  sandbox: string,
  log: (line: string) => void,
  timeoutMs = 180_000,
): Promise<Kill[]> {
  const apart: Kill[] = [];
  for (const k of kills) {
    const path = join(sandbox, k.file);
    const source = readFileSync(path, 'utf8');
    if (mutatedText(source, k.location) !== k.original) {
      log(`  not confirmed: ${k.file}:${k.location.start.line} moved since its report`);
      apart.push(k);
      continue;
    }
    writeFileSync(path, applyMutant(source, k.location, k.replacement));
    try {
      const code = await run(sandbox, timeoutMs);
      if (code === 0) {
        log(`  kill not reproduced: ${k.file}:${k.location.start.line} -> \`${k.replacement}\``);
        apart.push(k);
      }
    } finally {
      writeFileSync(path, source);
    }
  }
  return apart;
}
