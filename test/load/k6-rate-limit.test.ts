// The rate-limit probe in real k6 against the reference server's limiter shapes: each figure within
// 20 % of the truth, and a failed run for each limiter fault (429 without the error body, 500
// instead of 429, a limiter announced but not enforced); without any limiter and nothing declared,
// inconclusive (never passed). Short windows keep the whole file near 25 s of wall time.
// Skipped only on a machine with neither k6 nor Go.

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServerOptions } from '../../src/reference/index.ts';
import { busyLoopsOnEveryCore } from '../support/busy-loops.ts';
import { runLoadCli } from './cli-run.ts';
import {
  junitFailures,
  k6,
  MISSING_K6,
  noK6,
  removeReportDirs,
  reportDir,
  reports,
  runK6,
  runK6At,
  verdict,
} from './k6-run.ts';

afterAll(removeReportDirs);

/**
 * A limiter written apart from the reference server, as another team might: windows aligned to the
 * clock, X-RateLimit-* headers (reset as a Unix time), Retry-After as an HTTP date, the spec's body.
 */
async function independentLimiter(
  limit: number,
  windowSeconds: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const counts = new Map<number, number>();
  const server = createServer((req, res) => {
    const now = Date.now();
    const index = Math.floor(now / (windowSeconds * 1000));
    const resetAt = (index + 1) * windowSeconds * 1000;
    const used = counts.get(index) ?? 0;
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - used - 1)),
      'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
    };
    if (!req.headers['x-api-key-id']) {
      res
        .writeHead(401, headers)
        .end(JSON.stringify({ code: 'UNAUTHORIZED', message: 'no key', status_code: 401 }));
      return;
    }
    if (used >= limit) {
      // An HTTP date is whole seconds: the next full second at or after the reset.
      const retryAt = new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString();
      res
        .writeHead(429, { ...headers, 'retry-after': retryAt })
        .end(JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', status_code: 429 }));
      return;
    }
    counts.set(index, used + 1);
    res.writeHead(200, headers).end('{"data":[]}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Limit {
  burst?: number;
  ratePerSecond?: number;
  limitPerWindow?: number;
  windowSeconds?: number;
  method: string;
  shape: string;
  cannotTell?: string;
  declared: { quota?: number; windowSeconds?: number; sources: string[] };
}

function within(measured: number | undefined, truth: number, label: string): void {
  expect(measured, label).toBeDefined();
  const off = Math.abs((measured as number) - truth) / truth;
  expect(off, `${label}: measured ${measured}, truth ${truth}`).toBeLessThanOrEqual(0.2);
}

async function probe(server: ReferenceServerOptions) {
  const run = await runK6('rate-limit', server, { LOAD_PROFILE: 'smoke' });
  const { json, junit } = reports(run, 'rate-limit');
  const limit = (json.analysis as { limit: Limit }).limit;
  return { run, json, junit, limit };
}

/** A probe that could not tell: inconclusive with its reason, never a shape. True when so. */
function cannotTell(run: { code: number | null; output: string }, limit: Limit): boolean {
  if (!limit.cannotTell) return false;
  process.stdout.write(`k6 rate-limit: cannot tell (${limit.cannotTell})\n`);
  expect(run.code, run.output).toBe(99);
  expect(limit.shape).toBe('unknown');
  return true;
}

const say = (shape: string, truth: string, limit: Limit, wallMs: number) =>
  process.stdout.write(
    `k6 rate-limit, ${shape}: truth ${truth}; measured burst ${limit.burst}, ${limit.ratePerSecond} req/s${limit.windowSeconds ? `, ${limit.limitPerWindow} per ${limit.windowSeconds} s` : ''} in ${(wallMs / 1000).toFixed(1)} s\n`,
  );

describe.skipIf(noK6)(
  'the rate-limit probe in real k6 (skipped only where neither k6 nor Go is installed)',
  { timeout: 120_000 },
  () => {
    beforeAll(() => {
      if (!k6) throw new Error(MISSING_K6);
    });

    // One after the other: timing is what is measured. Nothing is retried: on a starved machine the
    // probe says it cannot tell (inconclusive, k6 exit 99) and that is accepted; a wrong shape or a
    // wrong figure never is.
    describe.sequential('measures every limiter shape within 20 %, or says it cannot tell', () => {
      it('a 1 s fixed window of 20, RateLimit headers on: declared and observed agree', async () => {
        const { run, json, limit } = await probe({
          rateLimit: { limit: 20, windowSeconds: 1 },
          rateLimitHeaders: true,
        });
        say('fixed 1 s', '20 per 1 s', limit, run.wallMs);
        if (cannotTell(run, limit)) return;
        expect(run.code, run.output).toBe(0);
        expect(limit.shape).toBe('window');
        within(limit.burst, 20, 'burst');
        within(limit.limitPerWindow, 20, 'limitPerWindow');
        within(limit.windowSeconds, 1, 'windowSeconds');
        within(limit.ratePerSecond, 20, 'ratePerSecond');
        expect(limit.declared).toMatchObject({ quota: 20, windowSeconds: 1 });
        expect(verdict(json, 'what the headers declare')?.ok).toBe(true);
        expect(verdict(json, 'every 429')?.ok).toBe(true);
        expect(verdict(json, 'a request after waiting')?.ok).toBe(true);
      });

      it('a 10 s fixed window of 50 without any header but Retry-After', async () => {
        const { run, limit } = await probe({ rateLimit: { limit: 50, windowSeconds: 10 } });
        say('fixed 10 s, no headers', '50 per 10 s', limit, run.wallMs);
        if (cannotTell(run, limit)) return;
        expect(run.code, run.output).toBe(0);
        expect(limit.declared.quota).toBeUndefined();
        within(limit.limitPerWindow, 50, 'limitPerWindow');
        within(limit.windowSeconds, 10, 'windowSeconds');
        within(limit.ratePerSecond, 5, 'ratePerSecond');
      });

      it('a token bucket of 30, refilled at 10 per second', async () => {
        const { run, limit } = await probe({
          rateLimit: { limit: 30, windowSeconds: 1, shape: 'token-bucket', refillPerSecond: 10 },
        });
        say('token bucket', 'capacity 30, 10/s', limit, run.wallMs);
        if (cannotTell(run, limit)) return;
        expect(run.code, run.output).toBe(0);
        expect(limit.shape).toBe('token-bucket');
        within(limit.burst, 30, 'burst');
        within(limit.ratePerSecond, 10, 'ratePerSecond');
      });

      it('a sliding window of 24 per 3 s', async () => {
        const { run, limit } = await probe({
          rateLimit: { limit: 24, windowSeconds: 3, shape: 'sliding-window' },
        });
        say('sliding 3 s', '24 per 3 s', limit, run.wallMs);
        if (cannotTell(run, limit)) return;
        expect(run.code, run.output).toBe(0);
        within(limit.burst, 24, 'burst');
        within(limit.ratePerSecond, 8, 'ratePerSecond');
      });
    });

    describe('beside a busy loop on every core (k6 starved)', () => {
      busyLoopsOnEveryCore();

      it('a 1 s fixed window of 20: the right shape and figures, or inconclusive; never a wrong shape or a failure', async () => {
        const { run, json, limit } = await probe({
          rateLimit: { limit: 20, windowSeconds: 1 },
          rateLimitHeaders: true,
        });
        say('fixed 1 s beside busy loops', '20 per 1 s', limit, run.wallMs);
        expect(json.verdict, run.output).not.toBe('failed');
        if (json.verdict === 'inconclusive') {
          expect(run.code).toBe(99);
          expect(limit.shape).not.toBe('token-bucket');
          return;
        }
        expect(run.code, run.output).toBe(0);
        expect(limit.shape).toBe('window');
        within(limit.windowSeconds, 1, 'windowSeconds');
        within(limit.limitPerWindow, 20, 'limitPerWindow');
      });
    });

    it('another server altogether: clock-aligned 2 s windows of 15, X-RateLimit-* with a Unix reset, Retry-After as an HTTP date', async () => {
      const server = await independentLimiter(15, 2);
      try {
        const run = await runK6At('rate-limit', server.url, { LOAD_PROFILE: 'smoke' });
        const { json } = reports(run, 'rate-limit');
        const limit = (json.analysis as { limit: Limit }).limit;
        say('independent aligned 2 s', '15 per 2 s', limit, run.wallMs);
        if (cannotTell(run, limit)) return;
        expect(run.code, run.output).toBe(0);
        within(limit.burst, 15, 'burst');
        within(limit.windowSeconds, 2, 'windowSeconds');
        within(limit.ratePerSecond, 7.5, 'ratePerSecond');
        expect(limit.declared).toMatchObject({ quota: 15, sources: ['X-RateLimit-*', 'Retry-After'] });
        expect(verdict(json, 'what the headers declare')?.ok).toBe(true);
      } finally {
        await server.close();
      }
    });

    describe.concurrent('fails on the limiter faults', () => {
      it('retry-after-too-short: a request sent after the announced wait is refused', async () => {
        const { run, json } = await probe({
          rateLimit: { limit: 10, windowSeconds: 3 },
          faults: ['retry-after-too-short'],
        });
        expect(run.code).toBe(99);
        expect(verdict(json, 'a request after waiting')?.ok).toBe(false);
      });

      it('rate-limit-no-body: 429 without the error body', async () => {
        // A 5 s window: even a starved burst outruns 10 requests in it, so 429s are seen.
        const { run, json, junit } = await probe({
          rateLimit: { limit: 10, windowSeconds: 5 },
          faults: ['rate-limit-no-body'],
        });
        expect(run.code).toBe(99);
        expect(json.verdict).toBe('failed');
        expect(verdict(json, 'every 429')).toMatchObject({ ok: false });
        expect(junitFailures(junit)).toContain('rate_limit_malformed_429: count==0');
      });

      it('rate-limit-500: 500 instead of 429', async () => {
        const { run, json } = await probe({
          rateLimit: { limit: 10, windowSeconds: 1 },
          faults: ['rate-limit-500'],
        });
        expect(run.code).toBe(99);
        expect(verdict(json, 'a caller over the limit')).toMatchObject({
          ok: false,
          detail: 'refused with HTTP 500 instead of 429',
        });
        expect(verdict(json, 'no 5xx')?.ok).toBe(false);
      });

      it('rate-limit-missing: a limiter announced by its headers but never enforced', async () => {
        // 10 per 10 s declared: even a starved burst outruns it twice over, so "never refused"
        // is proof, not a probe too slow to meet the limit (that would be inconclusive).
        const { run, json } = await probe({
          rateLimit: { limit: 10, windowSeconds: 10 },
          rateLimitHeaders: true,
          faults: ['rate-limit-missing'],
        });
        expect(run.code).toBe(99);
        expect(json.verdict).toBe('failed');
        expect(verdict(json, 'a caller over the limit')?.detail).toMatch(
          /declare a quota of 10, but \d+ requests were accepted/,
        );
      });

      it('through npm run load:rate-limit, an inconclusive run exits 3 with one line saying why', async () => {
        const dir = reportDir('k6-cli-rate-');
        const run = await runLoadCli(['rate-limit', '--profile', 'smoke', '--', '--quiet'], {
          PATH: [dirname(k6 as string), process.env.PATH].join(delimiter),
          K6_REPORT_DIR: dir,
          LOCAL_RATE_LIMIT: 'off',
        });
        expect(run.code, run.stderr).toBe(3);
        expect(run.stderr).toMatch(
          /^load: inconclusive \(exit 3\): the limiter was never met: no refusal after \d+ requests/m,
        );
      });

      it('no limiter and nothing declared: inconclusive (k6 exit 99), never passed', async () => {
        const { run, json, junit } = await probe({ rateLimit: null });
        expect(run.code).toBe(99);
        expect(json).toMatchObject({ verdict: 'inconclusive', passed: false });
        // 2000 requests within the probe's time; a starved k6 (load 35) sent 1700 in 60 s.
        expect(json.verdictReason).toMatch(/^the limiter was never met: no refusal after \d+ requests/);
        expect(junitFailures(junit)).toContain('the run put its rule to the test');
      });
    });
  },
);
