// How this project's TypeScript command-line tools are started in a Node process of their own: Node
// with tsx's loader, and, for the tools that drive vitest, vitest's Node API loaded first. Under tsx
// every module of vitest and vite would go through tsx's loader hooks too (about 1 s of a 3 s
// conformance run, npm run bench); loaded before tsx registers, they come from Node's own loader and
// the later import finds them in its cache. package.json's scripts start the tools the same way
// (test/cli/node-command.test.ts holds them to it); tests and benchmarks spawn them with these arguments.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// import.meta.resolve is not available under vitest's module runner; both packages resolve alike.
const require = createRequire(import.meta.url);
const moduleUrl = (specifier: string) => pathToFileURL(require.resolve(specifier)).href;

/** The tools that run vitest in their own process (the conformance run, the fault matrix). */
export const VITEST_TOOLS: readonly string[] = ['src/cli/conformance.ts', 'src/cli/faults.ts'];

/**
 * Node's arguments before the tool's own: absolute, so a run in another working directory (with its
 * own .env) starts the same way. `script` is relative to the repository root.
 */
export function nodeArgsFor(script: string): string[] {
  const preload = VITEST_TOOLS.includes(script) ? ['--import', moduleUrl('vitest/node')] : [];
  return [...preload, '--import', moduleUrl('tsx'), `${ROOT}${script}`];
}

/** The same, as package.json's scripts write it (relative to the repository root). */
export function npmScriptCommand(script: string): string {
  const preload = VITEST_TOOLS.includes(script) ? '--import vitest/node ' : '';
  return `node ${preload}--import tsx ${script}`;
}
