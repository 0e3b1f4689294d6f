// The production guard as check() applies it (src/checks/define.ts): a check that declares guarded
// actions is skipped, with the guard's reason in its meta, wherever the guard says no, and its body
// never runs; everywhere else it runs. Every target x ALLOW_PRODUCTION_WRITES x set of actions.
import { beforeAll, describe, expect, it } from 'vitest';
import { area, check } from '../../src/checks/define.ts';
import { type GuardedAction, guard, type TargetName } from '../../src/config/index.ts';
import { provideTarget, remoteTarget } from './provide-target.ts';

const GUARD_SETS: GuardedAction[][] = [
  [],
  ['write'],
  ['load'],
  ['petstore'],
  ['petstore', 'write'],
  ['write', 'load'],
];
const COMBINATIONS: { target: TargetName; allowProductionWrites: boolean }[] = [
  { target: 'local', allowProductionWrites: false },
  { target: 'staging', allowProductionWrites: false },
  { target: 'staging', allowProductionWrites: true },
  { target: 'production', allowProductionWrites: false },
  { target: 'production', allowProductionWrites: true },
];

const idOf = (target: string, writes: boolean, actions: GuardedAction[]) =>
  `GUARD-${target}-${writes ? 'writes' : 'nowrites'}-${actions.join('+') || 'none'}`;

const ran = new Set<string>();

for (const { target, allowProductionWrites } of COMBINATIONS) {
  describe(`${target}, ALLOW_PRODUCTION_WRITES ${allowProductionWrites ? 'yes' : 'no'}`, () => {
    beforeAll(() => provideTarget(remoteTarget(target, allowProductionWrites)));
    area('pets', () => {
      for (const actions of GUARD_SETS) {
        const id = idOf(target, allowProductionWrites, actions);
        check(
          { id, title: `guarded by [${actions.join(', ')}]`, rules: ['PET-01'], guarded: actions },
          async (t) => {
            expect(t.config.target).toBe(target);
            ran.add(id);
          },
        );
      }
    });
  });
}

it('ran exactly the checks the guard allows, and skipped the others with its reason', ({ task }) => {
  const tests = new Map<string, { state: string | undefined; skipReason: string | undefined }>();
  const walk = (tasks: readonly (typeof task.file.tasks)[number][]) => {
    for (const t of tasks) {
      if (t.type === 'suite') walk(t.tasks);
      else if (t.meta.conformance) {
        tests.set(t.meta.conformance.checkId, {
          state: t.result?.state,
          skipReason: t.meta.conformance.skipReason,
        });
      }
    }
  };
  walk(task.file.tasks);
  expect(tests.size).toBe(COMBINATIONS.length * GUARD_SETS.length);

  for (const { target, allowProductionWrites } of COMBINATIONS) {
    for (const actions of GUARD_SETS) {
      const id = idOf(target, allowProductionWrites, actions);
      const refusal = actions.map((a) => guard({ target, allowProductionWrites }, a)).find((v) => !v.allowed);
      const outcome = tests.get(id);
      if (refusal && !refusal.allowed) {
        expect(ran.has(id), `${id} body never runs`).toBe(false);
        expect(outcome, id).toEqual({ state: 'skip', skipReason: refusal.reason });
      } else {
        expect(ran.has(id), `${id} body runs`).toBe(true);
        expect(outcome, id).toEqual({ state: 'pass', skipReason: undefined });
      }
    }
  }
  // The cases that matter most, spelled out.
  expect(ran.has(idOf('production', true, ['petstore', 'write']))).toBe(false);
  expect(ran.has(idOf('production', false, ['load']))).toBe(false);
  expect(ran.has(idOf('production', true, ['write', 'load']))).toBe(true);
  expect(ran.has(idOf('staging', false, ['petstore', 'write']))).toBe(true);
});
