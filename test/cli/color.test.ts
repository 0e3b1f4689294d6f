// Colour only on a terminal; NO_COLOR and FORCE_COLOR win; the decision is written in the words
// vitest's colour library reads (it takes any FORCE_COLOR, even "0", as "on"); and a real run
// into a file, as `npm run conformance > run.log 2>&1` with TERM=xterm, carries no colour code.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleColor, wantsColor } from '../../src/cli/color.ts';
import { nodeArgsFor } from '../../src/cli/node-command.ts';
import { ROOT } from '../support/run-node.ts';

describe('wantsColor', () => {
  it('colours a terminal and nothing else by default', () => {
    expect(wantsColor({}, true)).toBe(true);
    expect(wantsColor({}, false)).toBe(false);
  });

  it('honours NO_COLOR and FORCE_COLOR', () => {
    expect(wantsColor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(wantsColor({ NO_COLOR: '' }, true)).toBe(true);
    expect(wantsColor({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(wantsColor({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(wantsColor({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(wantsColor({ NO_COLOR: '1', FORCE_COLOR: '1' }, true)).toBe(false);
  });
});

describe('settleColor', () => {
  it('switches colour off by NO_COLOR and removes any FORCE_COLOR', () => {
    const env: NodeJS.ProcessEnv = { FORCE_COLOR: '0' };
    settleColor(env, true);
    expect(env).toEqual({ NO_COLOR: '1' });
  });

  it('switches colour on by FORCE_COLOR on a terminal', () => {
    const env: NodeJS.ProcessEnv = {};
    settleColor(env, true);
    expect(env).toEqual({ FORCE_COLOR: '1' });
  });
});

describe('a conformance run whose output is a file', () => {
  it('writes no escape code with TERM=xterm and no NO_COLOR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'color-run-'));
    const log = join(dir, 'run.log');
    const fd = openSync(log, 'w');
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        TERM: 'xterm',
        CONFORMANCE_REPORTS_DIR: join(dir, 'reports'),
      };
      for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI', 'GITHUB_ACTIONS']) delete env[name];
      const code = await new Promise<number | null>((resolve, reject) => {
        // As `npm run conformance > run.log 2>&1`: both streams to the one file.
        const child = spawn(process.execPath, [...nodeArgsFor('src/cli/conformance.ts'), '--area', 'user'], {
          cwd: ROOT,
          env,
          stdio: ['ignore', fd, fd],
        });
        child.on('error', reject);
        child.on('close', resolve);
      });
      const written = readFileSync(log, 'utf8');
      expect(code, written.slice(-400)).toBe(0);
      // vitest's tree and the closing table are there, uncoloured.
      expect(written).toContain('suites/user.test.ts');
      expect(written, written).toContain('exit code 0');
      expect(written.includes('\u001b'), written.slice(0, 400)).toBe(false);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
