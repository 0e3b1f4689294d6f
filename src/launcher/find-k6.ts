// Finding the k6 binary: PATH first, then the project's own build (.tools/bin, made by `npm test`'s
// pretest), then Go's install directory ($(go env GOPATH)/bin, then ~/go/bin, Go's default GOPATH).
// Shared by the CLI, the pretest step and the real-k6 tests.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The release @types/k6 describes; the scripts are written against it. */
export const K6_VERSION = 'v1.7.0';

export const K6_INSTALL_HINT =
  `k6 is not installed: run \`go install go.k6.io/k6@${K6_VERSION}\` (it lands in $(go env GOPATH)/bin) ` +
  'or install it with your package manager (https://grafana.com/docs/k6/latest/set-up/install-k6/)';

/** Where findK6 looks, in order, as docs/load.md says it (test/launcher/install-story.test.ts). */
export const K6_PLACES = ['PATH', '.tools/bin', '$(go env GOPATH)/bin', '~/go/bin'] as const;

/** Where the pretest step builds k6 when it is found nowhere else (git-ignored). */
export const PROJECT_K6_DIR = fileURLToPath(new URL('../../.tools/bin', import.meta.url));

const EXE = process.platform === 'win32' ? '.exe' : '';

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface LookupOptions {
  env?: NodeJS.ProcessEnv;
  /** Home directory for ~/go/bin (default os.homedir(), or HOME from env when given). */
  home?: string;
  isExecutable?: (path: string) => boolean;
  /** The project's own k6 folder (default K6_PROJECT_DIR, else .tools/bin). */
  projectDir?: string;
}

/** A program on PATH, or undefined. */
export function onPath(name: string, options: LookupOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const isExecutable = options.isExecutable ?? isExecutableFile;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, `${name}${EXE}`);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** `go env GOPATH` (its first entry), or undefined when Go is missing or says nothing. */
export function goPath(options: LookupOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const go = onPath('go', options);
  if (!go) return undefined;
  try {
    const out = execFileSync(go, ['env', 'GOPATH'], {
      env,
      encoding: 'utf8',
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const first = out.trim().split(delimiter)[0];
    return first ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Where k6 is, or undefined: PATH, then .tools/bin, then $(go env GOPATH)/bin, then ~/go/bin. */
export function findK6(options: LookupOptions = {}): string | undefined {
  const isExecutable = options.isExecutable ?? isExecutableFile;
  const fromPath = onPath('k6', options);
  if (fromPath) return fromPath;
  const gopath = goPath(options);
  const home = options.home ?? options.env?.HOME ?? homedir();
  const candidates = [
    join(options.projectDir ?? (options.env ?? process.env).K6_PROJECT_DIR ?? PROJECT_K6_DIR, `k6${EXE}`),
    gopath && join(gopath, 'bin', `k6${EXE}`),
    home && join(home, 'go', 'bin', `k6${EXE}`),
  ];
  return candidates.find((c): c is string => typeof c === 'string' && c !== '' && isExecutable(c));
}
