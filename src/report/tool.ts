// The tool's name and version as results.json states them, from package.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceResults } from './types.ts';

export function toolOf(root: string): ConformanceResults['tool'] {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return { name: pkg.name ?? 'conformance', version: pkg.version ?? '0.0.0' };
  } catch {
    return { name: 'conformance', version: '0.0.0' };
  }
}
