// A target whose error bodies name a path of slashes: `/\/+$/` on it was quadratic (5.4 s for one
// 60,000-slash path, about 225 error answers a run: 20 minutes of blocked main thread, and no
// report when the job's time ran out). The run must end in its usual time with its reports, and a
// SIGINT must end it at once (exit 130) with an interrupted report.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { LOCK_FILE } from '../../src/report/run-lock.ts';
import { stagingThrough, startForwardingProxy } from '../support/forwarding-proxy.ts';
import { ROOT, runTs } from '../support/run-node.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The reference server behind a proxy that puts `slashes` slashes (then `x`) in every error's path. */
async function slashTarget(slashes: number) {
  const server = await startReferenceServer({ control: true });
  closers.push(() => server.close());
  const path = `${'/'.repeat(slashes)}x`;
  const proxy = await startForwardingProxy(server.apiBaseUrl, {
    rewrite: (body, status) => {
      if (status < 400 || !body.startsWith('{')) return body;
      try {
        return JSON.stringify({ ...JSON.parse(body), path });
      } catch {
        return body;
      }
    },
  });
  closers.push(() => proxy.close());
  const dir = mkdtempSync(join(tmpdir(), 'slash-paths-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { dir, env: stagingThrough(proxy.origin, server.credentials, dir) };
}

describe('error bodies whose path is a run of slashes', { timeout: 240_000 }, () => {
  it('60,000 slashes on every error answer: the run ends with its reports, failing ERR-05 on the path', async () => {
    const { dir, env } = await slashTarget(60_000);
    const started = Date.now();
    const run = await runTs(
      'src/cli/conformance.ts',
      ['--area', 'errors', '--area', 'customers-pagination'],
      { env },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(existsSync(join(dir, 'results.json')), run.stderr.slice(-500)).toBe(true);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      checks: { id: string; status: string }[];
    };
    expect(run.code).toBe(1);
    expect(results.checks.find((c) => c.id === 'INV-ERROR-PATH')?.status).toBe('failed');
    // Generous (a busy machine): the quadratic pass took minutes here, a linear one seconds.
    expect(seconds).toBeLessThan(180);
  });

  it('a 5 MiB path: SIGINT at 5 s ends the run with exit 130 and an interrupted report within 5 s', async () => {
    const { dir, env: quick } = await slashTarget(5 * 1024 * 1024);
    // Slow checks on: the flag watch keeps the run going for minutes, so the signal meets a run.
    const env = { ...quick, CONFORMANCE_SLOW: '1' };
    const child = spawn(
      process.execPath,
      ['--import', 'vitest/node', '--import', 'tsx', 'src/cli/conformance.ts'],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.on('exit', (code) => resolve({ code, at: Date.now() })),
    );
    // 5 s into the checks (a fresh clone spends longer than that setting up, and a signal during
    // set-up rightly leaves the last reports alone): the flag watch's announcement marks their start.
    let output = '';
    await new Promise<void>((resolve) => {
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('feature flags: watching')) resolve();
      };
      child.stdout?.on('data', seen);
      child.stderr?.on('data', seen);
      child.on('exit', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const sentAt = Date.now();
    child.kill('SIGINT');
    const { code, at } = await exited;
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { exitCode: number };
    expect(code).toBe(130);
    expect(results.exitCode).toBe(130);
    expect((at - sentAt) / 1000).toBeLessThan(5);
    // A run that ended leaves no lock behind.
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
