// The part of k6's end-of-test summary data (the argument of handleSummary) the reports read.
// Declared here rather than taken from @types/k6 so the pure renderers also type-check in Node.

export interface K6Metric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains?: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface K6Check {
  name: string;
  path: string;
  passes: number;
  fails: number;
}

export interface K6Group {
  name: string;
  path: string;
  checks: K6Check[];
  groups: K6Group[];
}

export interface K6SummaryData {
  metrics: Record<string, K6Metric>;
  root_group?: K6Group;
  state?: { testRunDurationMs?: number };
}

/** Every check of every group, in order. */
export function allChecks(group: K6Group | undefined): K6Check[] {
  if (!group) return [];
  return [...(group.checks ?? []), ...(group.groups ?? []).flatMap(allChecks)];
}
