// The request budget and the seed: spread over every operation, replayable, bad values refused in
// one line naming the variable.
import { describe, expect, it } from 'vitest';
import { spreadBudget } from '../../src/generate/budget.ts';
import { DEFAULT_BUDGET, generationSettings, subSeed } from '../../src/generate/settings.ts';

const inputs = [
  { operationId: 'a', validCost: 1, mutations: ['m1', 'm2', 'm3'] },
  { operationId: 'b', validCost: 2, mutations: ['n1'] },
  { operationId: 'c', validCost: 1, mutations: [] },
];

describe('spreadBudget', () => {
  it('gives every operation valid requests and every mutation a run, within the budget', () => {
    const plan = spreadBudget(300, 7, inputs);
    expect(Object.keys(plan.valid).sort()).toEqual(['a', 'b', 'c']);
    expect(plan.valid.b).toBe(Math.floor(plan.valid.a ?? 0) / 2);
    expect(Object.keys(plan.invalid.a ?? {}).sort()).toEqual(['m1', 'm2', 'm3']);
    expect(plan.invalid.b?.n1).toBeGreaterThan(1);
    expect(plan.total).toBeLessThanOrEqual(300);
    expect(plan.total).toBeGreaterThan(250);
  });

  it('a small budget picks mutations in a seeded order: the same seed, the same ones', () => {
    const one = spreadBudget(5, 7, inputs);
    expect(spreadBudget(5, 7, inputs)).toEqual(one);
    const chosen = Object.values(one.invalid).flatMap((m) => Object.keys(m));
    expect(chosen.length).toBe(5 - Object.values(one.valid).reduce((n, r) => n + r, 0) - (one.valid.b ?? 0));
  });

  it('0 sends nothing', () => {
    expect(spreadBudget(0, 7, inputs)).toEqual({ valid: {}, invalid: {}, total: 0 });
  });
});

describe('generationSettings', () => {
  it('defaults: a drawn seed and the default budget', () => {
    expect(generationSettings({}, () => 99)).toEqual({
      ok: true,
      settings: { seed: 99, replay: false, budget: DEFAULT_BUDGET },
    });
  });

  it('CONFORMANCE_SEED replays, CONFORMANCE_GENERATED=0 switches generation off', () => {
    expect(generationSettings({ CONFORMANCE_SEED: '42', CONFORMANCE_GENERATED: '0' })).toEqual({
      ok: true,
      settings: { seed: 42, replay: true, budget: 0 },
    });
  });

  it.each([
    [{ CONFORMANCE_SEED: 'abc' }, 'CONFORMANCE_SEED'],
    [{ CONFORMANCE_SEED: '99999999999' }, 'CONFORMANCE_SEED'],
    [{ CONFORMANCE_GENERATED: '-1' }, 'CONFORMANCE_GENERATED'],
    [{ CONFORMANCE_GENERATED: 'lots' }, 'CONFORMANCE_GENERATED'],
  ])('%o is refused in one line naming %s', (env, variable) => {
    const result = generationSettings(env);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.startsWith(variable)).toBe(true);
      expect(result.problem).not.toContain('\n');
    }
  });

  it('sub-seeds are stable and differ by name', () => {
    expect(subSeed(1, 'x')).toBe(subSeed(1, 'x'));
    expect(subSeed(1, 'x')).not.toBe(subSeed(1, 'y'));
    expect(subSeed(1, 'x')).not.toBe(subSeed(2, 'x'));
  });
});
