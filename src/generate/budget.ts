// Spreading the request budget across operations: valid requests for every operation, and every
// single-constraint break tried at least once where the budget allows (in a seeded order when it
// does not), so a small budget still probes every operation.
import { subSeed } from './settings.ts';

export interface BudgetInput {
  operationId: string;
  /** Requests one valid probe costs (a create read back costs 2). */
  validCost: number;
  mutations: string[];
}

export interface BudgetPlan {
  valid: Record<string, number>;
  /** Runs per mutation id, per operation; a mutation left out gets none. */
  invalid: Record<string, Record<string, number>>;
  /** Requests the plan spends (before shrinking). */
  total: number;
}

/** Share of the budget for valid requests; the rest breaks constraints. */
const VALID_SHARE = 0.4;

export function spreadBudget(budget: number, seed: number, inputs: readonly BudgetInput[]): BudgetPlan {
  const plan: BudgetPlan = { valid: {}, invalid: {}, total: 0 };
  if (budget <= 0 || inputs.length === 0) return plan;
  const validBudget = Math.max(1, Math.round(budget * VALID_SHARE));
  const perOperation = Math.max(1, Math.floor(validBudget / inputs.length));
  for (const input of inputs) {
    const runs = Math.max(1, Math.floor(perOperation / input.validCost));
    plan.valid[input.operationId] = runs;
    plan.total += runs * input.validCost;
  }
  const all = inputs.flatMap((i) => i.mutations.map((m) => ({ op: i.operationId, m })));
  const left = Math.max(0, budget - plan.total);
  // Too few requests for every mutation: a seeded choice, so a replay picks the same ones.
  const chosen =
    left >= all.length
      ? all
      : [...all]
          .sort((a, b) => subSeed(seed, `${a.op} ${a.m}`) - subSeed(seed, `${b.op} ${b.m}`))
          .slice(0, left);
  const each = chosen.length ? Math.max(1, Math.floor(left / chosen.length)) : 0;
  for (const { op, m } of chosen) {
    plan.invalid[op] ??= {};
    (plan.invalid[op] as Record<string, number>)[m] = each;
    plan.total += each;
  }
  return plan;
}
