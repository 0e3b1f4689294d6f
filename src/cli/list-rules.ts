// The rule catalogue with its coverage: which checks prove each rule, which rules no check covers,
// and the routes x rules table: each rule checked on every route it governs. Coverage comes from
// collecting the suites (no request is sent), so it cannot drift from them.
import { createVitest } from 'vitest/node';
import { invariantChecks } from '../checks/invariants.ts';
import { type OperationInfo, operations } from '../contract/index.ts';
import { RULES } from '../rules/catalogue.ts';
import { rulesOfTags } from '../rules/tags.ts';
import { PROJECT_VITEST } from '../runner/project-root.ts';

/** Each test of the suites as collected (no request sent): its check id and its tags. */
async function collectSuiteTests(): Promise<{ checkId: string; tags: readonly string[] }[]> {
  const vitest = await createVitest('test', {
    ...PROJECT_VITEST,
    project: ['conformance'],
    watch: false,
    reporters: [],
  });
  try {
    const { testModules } = await vitest.collect();
    // The name is "ID title" (check() in src/checks/define.ts); the rules are the tags.
    return testModules.flatMap((m) =>
      [...m.children.allTests()].map((t) => ({ checkId: t.name.split(' ')[0] ?? t.name, tags: t.tags })),
    );
  } finally {
    await vitest.close();
  }
}

export async function collectCoverage(): Promise<Map<string, string[]>> {
  const coverage = new Map<string, string[]>();
  for (const { checkId, tags } of await collectSuiteTests()) {
    for (const id of rulesOfTags(tags)) coverage.set(id, [...(coverage.get(id) ?? []), checkId]);
  }
  // The invariants judge every answer of the run (src/checks/invariants.ts): they cover their rules too.
  for (const inv of invariantChecks()) {
    for (const id of inv.rules) coverage.set(id, [...(coverage.get(id) ?? []), inv.id]);
  }
  return coverage;
}

/** Every check id of the suites (collected, no request sent) and of the invariants. */
export async function collectCheckIds(): Promise<string[]> {
  const ids = (await collectSuiteTests()).map((t) => t.checkId.toUpperCase());
  return [...ids, ...invariantChecks().map((c) => c.id)];
}

/** A rule that governs routes, and which routes it governs (from the operation's auth and service). */
interface RouteRule {
  rule: string;
  /** What the column checks, for the legend. */
  what: string;
  governs(op: OperationInfo): boolean;
}

const isMain = (op: OperationInfo) => op.service === 'main';
const takes = (scheme: 'apiKey' | 'bearer') => (op: OperationInfo) => op.security.includes(scheme);

export const ROUTE_RULES: readonly RouteRule[] = [
  { rule: 'BEA-02', what: 'no credentials', governs: (op) => op.security.length > 0 },
  {
    rule: 'BEA-03',
    what: 'the scheme the route does not take',
    governs: (op) => op.security.length > 0 && op.security.length < 2,
  },
  { rule: 'BEA-04', what: 'foreign, malformed and near-miss tokens', governs: takes('bearer') },
  { rule: 'KEY-02', what: 'wrong and near-miss key secrets, key mix-ups', governs: takes('apiKey') },
  { rule: 'KEY-03', what: 'a pinned key from elsewhere, claimed addresses', governs: takes('apiKey') },
  {
    rule: 'TOK-03',
    what: 'wrong and near-miss client secrets',
    governs: (op) => op.operationId === 'createToken',
  },
  { rule: 'REN-01', what: 'an expired token: SESSION_EXPIRED', governs: takes('bearer') },
  { rule: 'REN-02', what: 'renewal after SESSION_EXPIRED', governs: takes('bearer') },
  // The error body on every error of the main service; the pet operations' errors are not shown.
  ...['ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05', 'ERR-06', 'ERR-07', 'ERR-08'].map((rule) => ({
    rule,
    what: 'the error body on every error',
    governs: isMain,
  })),
  { rule: 'GEN-01', what: 'every 2xx against its schema', governs: () => true },
  { rule: 'SEC-01', what: 'no secret or stray token in any answer', governs: () => true },
  { rule: 'GEN-02', what: 'every body declared JSON is a JSON text as sent', governs: () => true },
];

/** The checks of a route: those named for its operation, and the token route's own area. */
function checksOfRoute(op: OperationInfo, checks: readonly string[]): string[] {
  return checks.filter(
    (id) => id.endsWith(`-${op.operationId}`) || (op.operationId === 'createToken' && id.startsWith('TOK-')),
  );
}

const INVARIANT_IDS = new Set(invariantChecks().map((c) => c.id));

/**
 * Routes x rules: "check" where a check of that route covers the rule, "every answer" where an
 * invariant judges it on every answer of the run, "-" where the rule does not govern the route,
 * and "MISSING" where it governs and nothing checks it.
 */
export function routeTable(coverage: ReadonlyMap<string, readonly string[]>): {
  text: string;
  missing: string[];
} {
  const ops = operations();
  const missing: string[] = [];
  const cell = (op: OperationInfo, r: RouteRule): string => {
    if (!r.governs(op)) return '-';
    const checks = coverage.get(r.rule) ?? [];
    const own = checksOfRoute(op, checks);
    const every = checks.some((id) => INVARIANT_IDS.has(id));
    if (own.length && every) return `${own.length}+inv`;
    if (own.length) return String(own.length);
    if (every) return 'inv';
    missing.push(`${r.rule} on ${op.method.toUpperCase()} ${op.path}`);
    return 'MISSING';
  };
  const routes = ops.map((op) => `${op.method.toUpperCase()} ${op.path}`);
  const width = Math.max(...routes.map((r) => r.length));
  const header = `${'route'.padEnd(width)}  ${ROUTE_RULES.map((r) => r.rule.padEnd(7)).join(' ')}`;
  const rows = ops.map(
    (op, i) =>
      `${(routes[i] ?? '').padEnd(width)}  ${ROUTE_RULES.map((r) => cell(op, r).padEnd(7)).join(' ')}`,
  );
  const legend = [
    'n: checks of that route cover the rule; inv: an invariant judges it on every answer of the run;',
    '-: the rule does not govern the route (its auth, or "Error responses of the demo pet operations: not shown")',
    ...ROUTE_RULES.filter((r, i, all) => all.findIndex((x) => x.what === r.what) === i).map(
      (r) =>
        `  ${ROUTE_RULES.filter((x) => x.what === r.what)
          .map((x) => x.rule)
          .join(', ')}: ${r.what}`,
    ),
  ];
  return { text: [header, ...rows, '', ...legend].join('\n'), missing };
}

export async function listRules(): Promise<string> {
  const coverage = await collectCoverage();
  const lines = RULES.map((rule) => {
    const checks = coverage.get(rule.id) ?? [];
    const covered =
      rule.scope === 'client'
        ? `client rule, proven by ${rule.verifiedBy}`
        : checks.length
          ? `${checks.length} check${checks.length > 1 ? 's' : ''}: ${checks.slice(0, 4).join(', ')}${checks.length > 4 ? ', ...' : ''}`
          : 'UNCOVERED';
    return `${rule.id.padEnd(8)} ${rule.level.padEnd(6)} ${rule.area.padEnd(21)} ${rule.text}\n${' '.repeat(16)}-> ${covered}`;
  });
  const uncovered = RULES.filter((r) => r.scope !== 'client' && !coverage.has(r.id)).length;
  const table = routeTable(coverage);
  const gaps = table.missing.length ? `; ${table.missing.length} route x rule cells MISSING` : '';
  return `${lines.join('\n')}\n\nEvery rule on every route it governs:\n${table.text}\n\n${RULES.length} rules, ${uncovered} uncovered${gaps}\n`;
}
