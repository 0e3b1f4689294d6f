// The invariants (src/checks/invariants.ts) of a finished vitest run, for the reporters that count
// from vitest's modules (the console tree, the closing line): judged from the same checks, the
// same target, so every output gives the same counts as results.json.
import type { TestModule } from 'vitest/node';
import { type InvariantResult, invariantResults } from '../checks/invariants.ts';
import { outcomeOf, SELF_PROJECT } from './outcome.ts';
import '../checks/meta.ts';

export function invariantsOfRun(modules: ReadonlyArray<TestModule>): InvariantResult[] {
  const conformance = modules.filter((m) => m.project.name !== SELF_PROJECT);
  const provided = conformance[0]?.project.getProvidedContext();
  const info = provided?.targetInfo;
  if (!info) return [];
  // As the reports say it (collect.ts): a check a filter left out makes the run a filtered one.
  const filtered = conformance.some((m) =>
    [...m.children.allTests()].some((t) => outcomeOf(t) === undefined && t.result().state === 'skipped'),
  );
  const checks = conformance.flatMap((m) =>
    [...m.children.allTests()].flatMap((test) => {
      const meta = test.meta().conformance;
      // A check a filter left out is no part of the run (as in the reports).
      return meta && outcomeOf(test)
        ? [{ id: meta.checkId, rules: meta.rules, area: meta.area, exchanges: meta.exchanges }]
        : [];
    }),
  );
  return invariantResults(checks, info, info.strict, filtered, provided?.setupExchanges);
}

/** The outcome of an invariant as the one outcome function says it of a check. */
export function invariantOutcome(r: InvariantResult) {
  if (r.status === 'passed') return { kind: 'passed' as const };
  if (r.status === 'failed')
    return { kind: 'failed' as const, nonStrict: r.nonStrict === true, reason: r.reason ?? '' };
  return { kind: 'skipped' as const, reason: r.reason ?? '' };
}
