// npm test prints the conformance table beside the self-tests, ending "this command's result is the
// closing line below": the closing line must then be the run's last line. Before, vitest started
// every reporter's end at once, and the closing line came out above the table: the last lines read
// "Conformant: every check passed" over failed self-tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runTs } from '../support/run-node.ts';

it('the closing line is the last line, below the conformance table', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'closing-line-'));
  try {
    const { VITEST: _v, VITEST_POOL_ID: _p, VITEST_WORKER_ID: _w, NODE_ENV: _n, ...env } = process.env;
    const run = await runTs(
      'node_modules/vitest/vitest.mjs',
      ['run', 'suites/operations.test.ts', 'test/common/safe-text.test.ts'],
      {
        env: {
          ...env,
          CONFORMANCE_TARGET: 'local',
          CONFORMANCE_REPORTS_DIR: dir,
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
      },
    );
    const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
    expect(lines.at(-2), run.stdout.slice(-2000)).toContain(
      "this command's result is the closing line below",
    );
    expect(lines.at(-1)).toMatch(/^tests: \d+ passed, 0 failed, \d+ skipped$/);
    expect(run.code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
