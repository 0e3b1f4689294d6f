// The npm scripts start the vitest-driving tools as the tests and benchmarks do (src/cli/node-command.ts):
// a script that lost the preload would be a second, slower way to start the same tool.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeArgsFor, npmScriptCommand, VITEST_TOOLS } from '../../src/cli/node-command.ts';
import { ROOT } from '../support/run-node.ts';

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('node-command', () => {
  it.each([
    ['conformance', 'src/cli/conformance.ts'],
    ['faults', 'src/cli/faults.ts'],
  ])('npm run %s starts %s with vitest loaded before tsx', (name, script) => {
    expect(VITEST_TOOLS).toContain(script);
    expect(scripts[name]).toBe(npmScriptCommand(script));
    expect(scripts[name]).toMatch(/^node --import vitest\/node --import tsx /);
  });

  it('spawned tools get absolute module URLs, the preload first, and the script last', () => {
    const args = nodeArgsFor('src/cli/conformance.ts');
    expect(args).toEqual([
      '--import',
      expect.stringMatching(/^file:\/\/.*\/node_modules\/vitest\//),
      '--import',
      expect.stringMatching(/^file:\/\/.*\/node_modules\/tsx\//),
      join(ROOT, 'src/cli/conformance.ts'),
    ]);
    // Tools that do not run vitest do not pay for loading it.
    expect(nodeArgsFor('src/cli/load.ts')).toEqual([
      '--import',
      expect.stringMatching(/\/node_modules\/tsx\//),
      join(ROOT, 'src/cli/load.ts'),
    ]);
  });
});
