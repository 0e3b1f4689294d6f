// Which credential schemes each protected route took in a run, read from its acceptance checks
// (KEY-ACCEPT-<operation>, BEA-ACCEPT-<operation>): a route may take "API key or bearer token as
// the route allows", so a reader needs to see which it took, and why a scheme was not tried.
import type { CheckResult } from './types.ts';

export type SchemeState = 'took' | 'refused' | 'failed' | 'not run';

export interface SchemeOutcome {
  state: SchemeState;
  /** Why it was refused or not run, or how it failed: the check's reason. */
  detail?: string;
}

export interface RouteSchemes {
  /** "GET /v1/customers". */
  route: string;
  apiKey?: SchemeOutcome;
  bearer?: SchemeOutcome;
}

const SCHEMES = [
  { key: 'apiKey', prefix: 'KEY-ACCEPT-', accepts: ' accepts the API key' },
  { key: 'bearer', prefix: 'BEA-ACCEPT-', accepts: ' accepts a bearer token' },
] as const;

// The skip reason of a bearer check on a route that does not take the scheme (route-schemes.ts).
const NOT_THIS_ROUTES_SCHEME = /^not this route's scheme here: /;

function outcomeOf(check: CheckResult): SchemeOutcome {
  const reason = check.reason ? { detail: check.reason } : {};
  if (check.status === 'passed') return { state: 'took' };
  if (check.status === 'failed') return { state: 'failed', ...reason };
  if (check.status === 'skipped' && NOT_THIS_ROUTES_SCHEME.test(check.reason ?? '')) {
    return { state: 'refused', detail: (check.reason ?? '').replace(NOT_THIS_ROUTES_SCHEME, '') };
  }
  return { state: 'not run', ...reason };
}

/** One row per route that has an acceptance check, in the order the checks ran. */
export function routeSchemesOf(checks: readonly CheckResult[]): RouteSchemes[] {
  const rows = new Map<string, RouteSchemes>();
  for (const check of checks) {
    for (const scheme of SCHEMES) {
      if (!check.id.startsWith(scheme.prefix) || !check.title.endsWith(scheme.accepts)) continue;
      const route = check.title.slice(0, -scheme.accepts.length);
      const row = rows.get(route) ?? { route };
      row[scheme.key] = outcomeOf(check);
      rows.set(route, row);
    }
  }
  return [...rows.values()];
}

/** "took", "refused (why)", or "-" where the route does not list the scheme. */
export function schemeText(outcome: SchemeOutcome | undefined): string {
  if (!outcome) return '-';
  return outcome.detail ? `${outcome.state} (${outcome.detail})` : outcome.state;
}
