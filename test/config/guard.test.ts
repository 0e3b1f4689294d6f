// The production guard, the one place that decides: every action x target x ALLOW_PRODUCTION_WRITES.
// Production is real money: writes and load only with ALLOW_PRODUCTION_WRITES=yes, the pet demo
// never; every other target allows everything.
import { describe, expect, it } from 'vitest';
import { type GuardedAction, guard, type TargetName } from '../../src/config/index.ts';
import { STAGING, settingsOf, variablesOf } from './helpers.ts';

const ACTIONS: GuardedAction[] = ['write', 'load', 'petstore'];
const TARGETS: TargetName[] = ['local', 'staging', 'production'];

function expectedAllowed(target: TargetName, allowProductionWrites: boolean, action: GuardedAction): boolean {
  if (target !== 'production') return true;
  return action !== 'petstore' && allowProductionWrites;
}

describe('guard()', () => {
  const cases = TARGETS.flatMap((target) =>
    [false, true].flatMap((allowProductionWrites) =>
      ACTIONS.map((action) => ({ target, allowProductionWrites, action })),
    ),
  );

  it.each(cases)(
    '$action on $target (writes allowed: $allowProductionWrites)',
    ({ target, allowProductionWrites, action }) => {
      const verdict = guard({ target, allowProductionWrites }, action);
      expect(verdict.allowed).toBe(expectedAllowed(target, allowProductionWrites, action));
      if (!verdict.allowed) {
        // A skip the report shows must say why, in one line.
        expect(verdict.reason.length).toBeGreaterThan(10);
        expect(verdict.reason).not.toMatch(/\n/);
      }
    },
  );

  it('never lets the pet demo run against production, even with writes allowed', () => {
    const verdict = guard({ target: 'production', allowProductionWrites: true }, 'petstore');
    expect(verdict).toEqual({
      allowed: false,
      reason: expect.stringMatching(/not to be used in production/),
    });
  });

  it('tells how to allow writes and load against production', () => {
    for (const action of ['write', 'load'] as const) {
      const verdict = guard({ target: 'production', allowProductionWrites: false }, action);
      expect(verdict).toEqual({
        allowed: false,
        reason: expect.stringContaining('ALLOW_PRODUCTION_WRITES=yes'),
      });
    }
  });
});

describe('ALLOW_PRODUCTION_WRITES through loadSettings into guard()', () => {
  const production = { ...STAGING, CONFORMANCE_TARGET: 'production' };

  // Every switch takes the same words (common/config-rules.ts readSwitch): CONFORMANCE_STRICT=yes and
  // ALLOW_PRODUCTION_WRITES=1 mean what they say.
  it.each(['yes', 'YES', 'Yes', '1', 'true', 'on'])('switches writes and load on with %j', (value) => {
    const allowed = settingsOf({ ...production, ALLOW_PRODUCTION_WRITES: value });
    expect(guard(allowed, 'write').allowed).toBe(true);
    expect(guard(allowed, 'load').allowed).toBe(true);
    expect(guard(allowed, 'petstore').allowed).toBe(false);
  });

  it.each([undefined, '', 'no', '0', 'false', 'OFF'])('keeps writes and load off when it is %j', (value) => {
    const settings = settingsOf({ ...production, ALLOW_PRODUCTION_WRITES: value });
    for (const action of ACTIONS) expect(guard(settings, action).allowed).toBe(false);
  });

  it.each(['y', 'yes please', 'enabled', '2', 'ja'])(
    'refuses the run rather than guessing when it is %j',
    (value) => {
      // Guessing either way is wrong: writes to real money, or checks silently skipped.
      expect(variablesOf({ ...production, ALLOW_PRODUCTION_WRITES: value })).toEqual([
        'ALLOW_PRODUCTION_WRITES',
      ]);
    },
  );
});
