// The reference server's flag options: the cache window (flagWindowSeconds, --flag-window) and flags
// that change on their own (flagChangeSeconds, --flag-change), the ground the real-time flag watch is
// tested on. Time moves with the in-process control's virtual clock, so nothing here waits.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/reference/options.ts';
import { ROOT, runTs } from '../support/run-node.ts';
import { type TestServer, withServer } from './helpers.ts';

type Flags = { data: { name: string; enabled: boolean }[] };

async function flagsOf(
  server: TestServer,
  headers: Record<string, string>,
): Promise<Record<string, boolean>> {
  const answer = await server.call('/api/v1/feature-flags', { headers });
  expect(answer.status).toBe(200);
  return Object.fromEntries((answer.json as Flags).data.map((f) => [f.name, f.enabled]));
}

describe('flagWindowSeconds', () => {
  it('renews the data once the configured window has passed, not before', async () => {
    // A window of 600 s moved through virtually: the real seconds a busy machine adds between the
    // calls cannot carry the second call out of it.
    await withServer({ flagWindowSeconds: 600 }, async (server) => {
      const headers = await server.bearerHeaders();
      expect((await flagsOf(server, headers))['new-dashboard']).toBe(true);
      server.control.setFeature('new-dashboard', false);
      server.control.advanceClock(580);
      expect((await flagsOf(server, headers))['new-dashboard'], 'within the 600 s window').toBe(true);
      server.control.advanceClock(21);
      expect((await flagsOf(server, headers))['new-dashboard'], 'after the window').toBe(false);
      const answer = await server.call('/api/v1/feature-flags', { headers });
      expect(answer.headers['cache-control']).toBe('private, max-age=600');
    });
  });

  it('is the spec 60 s by default', () => {
    expect(resolveOptions({}).flagWindowSeconds).toBe(60);
    expect(resolveOptions({}).flagChangeSeconds).toBe(0);
  });

  it.each([
    [{ flagWindowSeconds: 0 }, /flagWindowSeconds must be a number of seconds from 0\.1 to 86400, got 0/],
    [{ flagWindowSeconds: Number.NaN }, /flagWindowSeconds .* got NaN/],
    [{ flagChangeSeconds: -1 }, /flagChangeSeconds must be a number of seconds from 0\.1 to 86400, got -1/],
  ])('refuses %o in one line', (options, message) => {
    expect(() => resolveOptions(options)).toThrow(message);
  });
});

describe('flagChangeSeconds', () => {
  it('switches new-dashboard and beta-exports on their own, period by period', async () => {
    await withServer({ flagChangeSeconds: 10, faults: ['flags-not-cached'] }, async (server) => {
      const headers = await server.bearerHeaders();
      const states = [];
      for (let period = 0; period < 5; period++) {
        const flags = await flagsOf(server, headers);
        states.push([flags['new-dashboard'], flags['beta-exports'], flags.reports]);
        server.control.advanceClock(10);
      }
      expect(states).toEqual([
        [true, true, true],
        [false, true, true],
        [true, false, true],
        [false, false, true],
        [true, true, true],
      ]);
    });
  });

  it('leaves the flags alone by default', async () => {
    await withServer({ faults: ['flags-not-cached'] }, async (server) => {
      const headers = await server.bearerHeaders();
      const before = await flagsOf(server, headers);
      server.control.advanceClock(3000);
      expect(await flagsOf(server, headers)).toEqual(before);
    });
  });
});

/** Starts the command, returns what it printed once listening, and stops it. */
async function banner(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/reference-server.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('Ctrl+C stops it.')) resolve(text);
      });
      child.once('close', (code) => reject(new Error(`exited (${code}) before listening: ${text}`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
}

// Two servers started through tsx: seconds when idle, far more at load 30; only a hang misses 120 s.
describe('npm run reference-server -- --flag-window / --flag-change', { timeout: 120_000 }, () => {
  it('says the window and the self-changing flags, and how the suite is told the window', async () => {
    const text = await banner(['--port', '0', '--flag-window', '3', '--flag-change', '1.8']);
    expect(text).toContain('control API off (start with --control)');
    expect(text).toContain('flag cache window: 3 s (the suite judges it with CONFORMANCE_FLAG_WINDOW=3)');
    expect(text).toContain('new-dashboard and beta-exports change on their own every 1.8 s');
    expect(await banner(['--port', '0'])).not.toContain('flag cache window');
  });

  it('refuses a bad number of seconds in one line, exit 2', async () => {
    const run = await runTs('src/cli/reference-server.ts', ['--flag-window', 'soon'], { env: process.env });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'reference-server: --flag-window must be a number of seconds from 0.1 to 86400, got "soon"',
    );
  });
});
