// Every command's --help is an answer: its whole usage on stdout, nothing on stderr, exit 0.
import { describe, expect, it } from 'vitest';
import { runTs } from '../support/run-node.ts';

// Each lists its flags, the variables that matter, its exit codes and its docs page (issue 33: the
// conformance CLI's listed four flags and nothing else).
const COMMANDS: [string, string[], RegExp][] = [
  ['src/cli/conformance.ts', ['--help'], /^usage: npm run conformance .*\n(.*\n)* {2}--list-rules /],
  ['src/cli/reference-server.ts', ['--help'], /^usage: npm run reference-server -- .*--list-faults/],
  ['src/cli/faults.ts', ['--help'], /^usage: npm run faults (.*\n)*exit code: 0 /],
  ['src/cli/screenshot-report.ts', ['--help'], /^usage: npm run report:screenshot /],
  ['src/cli/load.ts', ['release', '--help'], /^usage: npm run load:(.*\n)*.*never from --env\.\n/],
  ['src/cli/merge-load.ts', ['--help'], /^usage: npm run merge:load -- DIR/],
  ['src/cli/compare.ts', ['--help'], /^usage: npm run compare -- A\.json B\.json/],
];

describe.concurrent('--help', { timeout: 60_000 }, () => {
  it.each(COMMANDS)('%s %s: usage on stdout, exit 0', async (script, args, usage) => {
    const run = await runTs(script, args, { env: { ...process.env, NO_COLOR: '1' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(usage);
  });

  it.each(COMMANDS.filter(([script]) => !script.endsWith('screenshot-report.ts')))(
    '%s %s: its exit codes and its docs page',
    async (script, args) => {
      const run = await runTs(script, args, { env: { ...process.env, NO_COLOR: '1' } });
      expect(run.stdout).toMatch(/^( {2})?exit codes?: 0 /m);
      expect(run.stdout).toMatch(/^docs: docs\/[a-z-]+\.md/m);
    },
  );

  it.each([
    [
      'src/cli/conformance.ts',
      ['--help'],
      [
        '--check',
        '--last-failed',
        '--baseline',
        '--version',
        'CONFORMANCE_TARGET',
        'CONFORMANCE_REPORTS_DIR',
      ],
    ],
    [
      'src/cli/load.ts',
      ['release', '--help'],
      ['--profile', '--live', 'K6_REPORT_DIR', 'ALLOW_PRODUCTION_WRITES'],
    ],
  ])('%s lists its flags and the variables that matter', async (script, args, words) => {
    const run = await runTs(script, args, { env: { ...process.env, NO_COLOR: '1' } });
    for (const word of words) expect(run.stdout).toContain(word);
  });
});

describe('an ambiguous --area', () => {
  it('lists the areas it matches', async () => {
    const run = await runTs('src/cli/conformance.ts', ['--area', 'token'], { env: { ...process.env } });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'conformance: area "token" matches several: auth-token, token-renewal; name one of them\n',
    );
  });
});
