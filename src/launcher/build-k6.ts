// Builds the pinned k6 with Go into the project's own folder (.tools/bin, or K6_PROJECT_DIR), where
// findK6 looks: `npm test`'s pretest and `npm run load:*` both build it when k6 is found nowhere
// and Go is there (about a minute, once per clone).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { findK6, K6_VERSION, onPath, PROJECT_K6_DIR } from './find-k6.ts';

export type BuildResult =
  | { built: string; seconds: number }
  | { noGo: true }
  /** Go's last line names the cause (no network to the module proxy, disk full, ...). */
  | { failed: string };

/** The folder k6 is built into: K6_PROJECT_DIR when set (as findK6 reads it), else .tools/bin. */
export function projectK6Dir(env: NodeJS.ProcessEnv = process.env): string {
  return env.K6_PROJECT_DIR?.trim() || PROJECT_K6_DIR;
}

/** `go install go.k6.io/k6@<pinned>` into the project's folder; say() tells the user it started. */
export async function buildPinnedK6(say: (line: string) => void): Promise<BuildResult> {
  const go = onPath('go');
  if (!go) return { noGo: true };
  const dir = projectK6Dir();
  mkdirSync(dir, { recursive: true });
  say(
    `building k6 ${K6_VERSION} with Go into ${dir} (about a minute with Go's caches warm, several on a first build; once)`,
  );
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(go, ['install', `go.k6.io/k6@${K6_VERSION}`], {
      env: { ...process.env, GOBIN: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    const keep = (c: Buffer) => {
      text += c.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('close', (c) => resolve({ code: c, output: text }));
  });
  const built = findK6();
  if (code !== 0 || !built) {
    return {
      failed: `go install go.k6.io/k6@${K6_VERSION} failed: ${output.trim().split('\n').at(-1) || 'no output'}`,
    };
  }
  return { built, seconds: Math.round((Date.now() - started) / 1000) };
}
