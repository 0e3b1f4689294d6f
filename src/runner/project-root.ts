// The project's own folder, found from this file, not from the working directory: vitest run from
// another folder (`node .../src/cli/conformance.ts` in /tmp) found no vitest.config.ts there and
// answered "No projects matched the filter "conformance"" (issue 33).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** vitest's options that make it load this project's configuration wherever it is started. */
export const PROJECT_VITEST = { root: PROJECT_ROOT, config: join(PROJECT_ROOT, 'vitest.config.ts') };
