// `npm test`'s pretest step: the real-k6 tests need the pinned k6, so a fresh machine with Go builds
// it here (about a minute, once per clone) into the git-ignored .tools/bin, which findK6 searches.
// Where k6 is already found this does nothing; with neither k6 nor Go it says the tests will skip.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { relative } from 'node:path';
import { findK6, K6_VERSION, onPath, PROJECT_K6_DIR } from './find-k6.ts';

const say = (line: string) => process.stdout.write(`pretest: ${line}\n`);

async function main(): Promise<number> {
  const found = findK6();
  if (found) {
    say(`k6 found at ${relative(process.cwd(), found) || found}`);
    return 0;
  }
  const go = onPath('go');
  if (!go) {
    say('neither k6 nor Go is installed: the real-k6 tests will be skipped (install Go or k6 to run them)');
    return 0;
  }
  mkdirSync(PROJECT_K6_DIR, { recursive: true });
  say(
    `building k6 ${K6_VERSION} with Go into ${relative(process.cwd(), PROJECT_K6_DIR)} (about a minute, once)`,
  );
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(go, ['install', `go.k6.io/k6@${K6_VERSION}`], {
      env: { ...process.env, GOBIN: PROJECT_K6_DIR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (c: Buffer) => {
      text += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      text += c.toString();
    });
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('close', (c) => resolve({ code: c, output: text }));
  });
  const built = findK6();
  if (code !== 0 || !built) {
    // Go's last line names the cause (no network to the module proxy, disk full, ...).
    const last = output.trim().split('\n').at(-1) ?? 'no output';
    process.stderr.write(`pretest: go install go.k6.io/k6@${K6_VERSION} failed: ${last}\n`);
    return 2;
  }
  say(`k6 built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}

process.exitCode = await main();
