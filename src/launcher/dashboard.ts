// k6's built-in web dashboard for every load run: its self-contained HTML export is written beside
// the other reports (k6-<script>.html), charted every second. k6 v1.7.0 carries xk6-dashboard
// v0.8.1, whose server cannot be switched off: K6_WEB_DASHBOARD_PORT=-1 (the advice of k6's docs)
// makes it listen on ALL interfaces at a random port (net.Listen("tcp", "") in its options.go;
// seen with `ss -ltnp`). So the launcher always pins it to 127.0.0.1: an ephemeral port that only
// lives while k6 runs, or 5665 when the user asks for the live view (--live). k6's REST API
// (127.0.0.1:6565 by default) is switched off with `--address=` unless the user sets --address.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportPaths } from '../../load/lib/summary/outputs.ts';
import { DASHBOARD_TAGS, dashboardConfig } from './dashboard-config.ts';
import type { LoadScriptName } from './scripts.ts';

export const LIVE_DASHBOARD = { host: '127.0.0.1', port: 5665 } as const;

export interface DashboardChoice {
  /** The live view on LIVE_DASHBOARD, which k6 keeps open while a browser watches it. */
  live: boolean;
}

/** The K6_WEB_DASHBOARD_* variables of one run: the launcher's, whatever the environment says. */
export function dashboardEnvironment(
  reportDir: string,
  script: string,
  choice: DashboardChoice & { configFile?: string },
): Record<string, string> {
  return {
    ...(choice.configFile ? { XK6_DASHBOARD_CONFIG: choice.configFile } : {}),
    K6_WEB_DASHBOARD: 'true',
    K6_WEB_DASHBOARD_EXPORT: reportPaths(reportDir, script).dashboard,
    K6_WEB_DASHBOARD_HOST: LIVE_DASHBOARD.host,
    K6_WEB_DASHBOARD_PORT: choice.live ? String(LIVE_DASHBOARD.port) : '0',
    K6_WEB_DASHBOARD_OPEN: 'false',
    // One point a second (k6 widens it on long runs, keeping at most 2880 points); its default of
    // 10 s gives a 30 s smoke run three points.
    K6_WEB_DASHBOARD_PERIOD: '1s',
    // Sub-metrics per endpoint (http_req_duration{endpoint:customers}) and per status
    // (http_reqs{status:429}) beside k6's own per group: the charts of dashboard-config.ts need them.
    K6_WEB_DASHBOARD_TAGS: DASHBOARD_TAGS.join(','),
  };
}

/** k6's options the launcher adds: no REST API listening, and no per-second progress in a log. */
export function k6RunOptions(userArgs: readonly string[], quiet: boolean): string[] {
  const has = (...names: string[]) =>
    userArgs.some((a) => names.some((n) => a === n || a.startsWith(`${n}=`)));
  const added: string[] = [];
  if (!has('--address', '-a')) added.push('--address=');
  if (quiet && !has('--quiet', '-q')) added.push('--quiet');
  return added;
}

/**
 * Pictures of an earlier run must not pass for this one's when this run writes none (a run too
 * short for k6's dashboard, a probe stopped before its end).
 */
export function removeStalePictures(reportDir: string, script: string, olderThan?: Date): void {
  const paths = reportPaths(reportDir, script);
  for (const path of [paths.dashboard, paths.limiter]) {
    // olderThan: called once the run has its report, so a run that never started removes nothing.
    if (olderThan && existsSync(path) && statSync(path).mtimeMs >= olderThan.getTime()) continue;
    rmSync(path, { force: true });
  }
}

/** The script's dashboard layout in a file of its own for k6 to read; remove() when k6 has ended. */
export function writeDashboardConfig(script: LoadScriptName): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'k6-dashboard-'));
  const file = join(dir, `${script}.json`);
  writeFileSync(file, `${JSON.stringify(dashboardConfig(script), null, 2)}\n`);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
