// The rule catalogue with its coverage: which checks prove each rule, which rules no check covers.
// Coverage comes from collecting the suites (no request is sent), so it cannot drift from them.
import { createVitest } from 'vitest/node';
import { RULES } from '../rules/catalogue.ts';
import { rulesOfTags } from '../rules/tags.ts';

export async function collectCoverage(): Promise<Map<string, string[]>> {
  const vitest = await createVitest('test', { project: ['conformance'], watch: false, reporters: [] });
  try {
    const { testModules } = await vitest.collect();
    const coverage = new Map<string, string[]>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const checkId = test.name.split(' ')[0] ?? test.name;
        // The rules are the test's tags (check() in src/checks/define.ts); its name is "ID title".
        for (const id of rulesOfTags(test.tags)) coverage.set(id, [...(coverage.get(id) ?? []), checkId]);
      }
    }
    return coverage;
  } finally {
    await vitest.close();
  }
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
  return `${lines.join('\n')}\n\n${RULES.length} rules, ${uncovered} uncovered\n`;
}
