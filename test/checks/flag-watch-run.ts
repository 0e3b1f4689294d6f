// A staging-like run of the feature-flag area: `npm run conformance -- --area feature-flags` in its
// own process (checks that fail must not fail this vitest run) against the reference server started
// here without its control API, with a short flag window (so the watch takes seconds), optionally
// flags that change on their own and a fault. The suite learns the window from
// CONFORMANCE_FLAG_WINDOW, as documented. The `reports` feature guards GET /v1/reports, the
// DISABLED_FEATURE_ROUTE: it is off from the start, or the test switches it off once the watch has
// seen it on for a window; either way it is off when the FLG-DISABLED checks run, after the watch.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flagWatchPlan } from '../../common/flag-window.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { type NodeRun, runTs } from '../support/run-node.ts';

// Each watch is one CLI run of about 10 s: the tests' 300 s limits are for a hang only (60 s failed
// at a load of 15-30 on 2 cores). The watch itself still reads the real clock: a starved run can
// see a switch late (FLG-RENEW then skipped, not passed).
export const WINDOW_SECONDS = 3;

export interface WatchRunOptions {
  faults?: string[];
  /** Flags change on their own this often (seconds); absent: never. */
  flagChangeSeconds?: number;
  /** Switch `reports` off once the watch has seen it on for a window. */
  flipGuardedFeature?: boolean;
  slow?: boolean;
  /** The reference server's other choices where the spec is silent (another flag shape). */
  extraFields?: boolean;
}

export interface CheckResult {
  id: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
  exchanges: unknown[];
}

export interface WatchRun extends NodeRun {
  checks: Map<string, CheckResult>;
  /** When the test switched `reports` off (ms after the watch's first look at the route). */
  flippedAfterMs: number | undefined;
}

const VARIABLES_OF_THIS_MACHINE =
  /^(CONFORMANCE_|API_|PETSTORE_|CLIENT_|PINNED_|DISABLED_|EXPIRED_|ALLOW_|REQUEST_|REFERENCE_)/;

export async function watchRun(options: WatchRunOptions): Promise<WatchRun> {
  const server = await startReferenceServer({
    control: false,
    flagWindowSeconds: WINDOW_SECONDS,
    faults: options.faults ?? [],
    ...(options.flagChangeSeconds ? { flagChangeSeconds: options.flagChangeSeconds } : {}),
    extraFields: options.extraFields === true,
  });
  if (server.controlUrl) throw new Error('the staging-like server must have no control API');
  const dir = mkdtempSync(join(tmpdir(), 'flag-watch-'));
  let timer: NodeJS.Timeout | undefined;
  let flippedAfterMs: number | undefined;
  try {
    if (!options.flipGuardedFeature) server.control.setFeature('reports', false);
    else {
      // The server counts each request on arrival: the first GET /v1/reports is the watch's first
      // look at the route; one that comes a window (and its tolerance) later follows a flags poll
      // whose data reflects the enabled state, so the switch goes right after it. One and a half
      // polls more leave room for answers a busy machine delays; the watch goes on long enough to
      // see the disabled state last a window (it extends itself for a late switch).
      const plan = flagWatchPlan(WINDOW_SECONDS * 1000);
      let firstSeen: number | undefined;
      let seen = 0;
      timer = setInterval(() => {
        const counts = server.control.requestCounts().byRoute;
        const reports = Object.entries(counts).find(([route]) => route.endsWith('/v1/reports'))?.[1] ?? 0;
        if (reports <= seen) return;
        seen = reports;
        const now = Date.now();
        firstSeen ??= now;
        if (now - firstSeen >= plan.windowMs + plan.toleranceMs + 1.5 * plan.pollMs) {
          server.control.setFeature('reports', false);
          flippedAfterMs = now - firstSeen;
          clearInterval(timer);
        }
      }, 5);
    }
    const env: NodeJS.ProcessEnv = { FORCE_COLOR: '0' };
    for (const [name, value] of Object.entries(process.env)) {
      if (!VARIABLES_OF_THIS_MACHINE.test(name)) env[name] = value;
    }
    const c = server.credentials;
    Object.assign(env, {
      CONFORMANCE_TARGET: 'staging',
      API_BASE_URL: server.apiBaseUrl,
      PETSTORE_BASE_URL: server.petstoreBaseUrl,
      CLIENT_ID: c.clientId,
      CLIENT_SECRET: c.clientSecret,
      API_KEY_ID: c.apiKeyId,
      API_KEY_SECRET: c.apiKeySecret,
      DISABLED_FEATURE_ROUTE: '/v1/reports',
      CONFORMANCE_FLAG_WINDOW: String(WINDOW_SECONDS),
      CONFORMANCE_SLOW: options.slow === false ? '0' : '1',
      CONFORMANCE_REPORTS_DIR: join(dir, 'reports'),
    });
    // From the repository (vitest's configuration is there), as the hostile-target tests run it.
    const run = await runTs('src/cli/conformance.ts', ['--area', 'feature-flags'], { env });
    let checks = new Map<string, CheckResult>();
    try {
      const results = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as {
        checks: CheckResult[];
      };
      checks = new Map(results.checks.map((check) => [check.id, check]));
    } catch {
      // No results: the assertions on the checks fail and show the output below.
    }
    return { ...run, checks, flippedAfterMs };
  } finally {
    clearInterval(timer);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a failed expectation shows: the run's output, for a test that did not go as expected. */
export function explain(run: NodeRun): string {
  return `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;
}
