// `npm run conformance` against broken environments: every run ends within its bounds, with exit 2
// and one line naming the cause when nothing can be reached, or with the affected checks failed
// (exit 1) otherwise; the reports are written either way, and no configured secret appears in
// them, on the console or in an error.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs } from '../support/run-node.ts';
import {
  HOSTILE_KINDS,
  type HostileKind,
  selfSignedCertificate,
  startHostileTarget,
} from './hostile-servers.ts';

const SECRETS = {
  CLIENT_SECRET: 'hostile-client-secret-7f3a9c',
  API_KEY_SECRET: 'hostile-api-key-secret-2b8e4d',
  PINNED_API_KEY_SECRET: 'hostile-pinned-secret-91c0aa',
  EXPIRED_ACCESS_TOKEN: 'hostile-expired-token-5d6e7f',
};

// Where nothing answers, the run stops before the checks: exit 2 and the cause in one line.
const UNREACHABLE: Partial<Record<HostileKind, RegExp>> = {
  refused: /refused/i,
  'dns-failure': /dns|resolve|not found/i,
  'tls-self-signed': /tls|certificate/i,
  'never-answers': /time(d)? ?out/i,
  'reset-mid-body': /reset|closed|socket/i,
};

interface Run {
  code: number | null;
  output: string;
  reportsDir: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// Short, so the target that never answers is given up on quickly; the 10 MB body gets longer, as it
// is about the size cap and must not time out on a busy machine.
const TIMEOUT_MS: Partial<Record<HostileKind, string>> = { 'ten-megabyte-body': '15000' };

function conformance(apiBaseUrl: string, petstoreBaseUrl: string, timeoutMs = '1500'): Promise<Run> {
  const reportsDir = mkdtempSync(join(tmpdir(), 'hostile-reports-'));
  dirs.push(reportsDir);
  const env = {
    ...process.env,
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: apiBaseUrl,
    PETSTORE_BASE_URL: petstoreBaseUrl,
    CLIENT_ID: 'hostile-client',
    API_KEY_ID: 'hostile-key',
    PINNED_API_KEY_ID: 'hostile-pinned-key',
    ...SECRETS,
    REQUEST_TIMEOUT_MS: timeoutMs,
    CONFORMANCE_SLOW: '0',
    CONFORMANCE_STRICT: '0',
    CONFORMANCE_REPORTS_DIR: reportsDir,
    REFERENCE_CONTROL_URL: '',
    DISABLED_FEATURE_ROUTE: '',
    NODE_TLS_REJECT_UNAUTHORIZED: '1',
    FORCE_COLOR: '0',
  };
  // One stream, as a person sees it: the reason line may come on either.
  return runTs('src/cli/conformance.ts', [], { env }).then((run) => ({
    code: run.code,
    output: run.stdout + run.stderr,
    reportsDir,
  }));
}

function everythingWritten(run: Run): string {
  const files = readdirSync(run.reportsDir).map((name) => readFileSync(join(run.reportsDir, name), 'utf8'));
  return [run.output, ...files].join('\n');
}

const kinds = HOSTILE_KINDS.filter((kind) => kind !== 'tls-self-signed' || selfSignedCertificate());

describe.concurrent('a conformance run against a misbehaving target', () => {
  it.each(kinds)(
    '%s: ends with a clear outcome, reports written, no secret anywhere',
    async (kind) => {
      const target = await startHostileTarget(kind);
      let run: Run;
      try {
        run = await conformance(target.apiBaseUrl, target.petstoreBaseUrl, TIMEOUT_MS[kind]);
      } finally {
        await target.close();
      }
      // No stack dumps: every reason is one line of ours.
      expect(run.output, 'no stack trace on the console').not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      const unreachable = UNREACHABLE[kind];
      if (unreachable) {
        expect(run.code, run.output.slice(-400)).toBe(2);
        const reason = run.output.split('\n').find((line) => line.includes('cannot reach the target'));
        expect(reason, run.output.slice(-400)).toMatch(unreachable);
      } else {
        expect(run.code, run.output.slice(-400)).toBe(1);
        const results = JSON.parse(readFileSync(join(run.reportsDir, 'results.json'), 'utf8'));
        const failed = results.checks.filter((c: { status: string }) => c.status === 'failed');
        expect(failed.length, 'checks failed against the hostile target').toBeGreaterThan(0);
        for (const check of failed) {
          expect(check.reason, `${check.id} has a reason`).toBeTruthy();
          expect(String(check.reason), `${check.id}: one-line reason`).not.toContain('\n');
        }
      }
      expect(existsSync(join(run.reportsDir, 'results.json')), 'results.json written').toBe(true);
      expect(existsSync(join(run.reportsDir, 'summary.md')), 'summary.md written').toBe(true);
      const written = everythingWritten(run);
      for (const [name, secret] of Object.entries(SECRETS)) {
        expect(written.includes(secret), `${name} leaked`).toBe(false);
      }
    },
    90_000,
  );
});
