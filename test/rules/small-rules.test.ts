// The small rules live once: a second copy drifts (three levelOf once disagreed on a check that
// names no rule; two namesRoute decoded differently).
import { describe, expect, it } from 'vitest';
import { namesRoute } from '../../src/checks/invariants.ts';
import { failsTheRun, levelOfRules, RULES } from '../../src/rules/catalogue.ts';
import { filesMatching } from '../support/sources.ts';

const SUITE = ['src', 'load', 'common', 'suites'];

describe('the level of a check from its rules', () => {
  it('is the strongest of its rules, and MUST for a check that names none or an unknown one', () => {
    expect(levelOfRules([])).toBe('MUST');
    expect(levelOfRules(['PAG-01'])).toBe('MUST');
    expect(levelOfRules(['PAG-12', 'PAG-13'])).toBe('ADVICE');
    expect(levelOfRules(['PAG-12', 'PAG-01'])).toBe('MUST');
    expect(levelOfRules(['NO-SUCH-RULE'])).toBe('MUST');
  });

  it('fails the run: MUST always, SHOULD only when strict, advice never', () => {
    expect([failsTheRun('MUST', false), failsTheRun('SHOULD', false), failsTheRun('SHOULD', true)]).toEqual([
      true,
      false,
      true,
    ]);
    expect([failsTheRun('ADVICE', false), failsTheRun('ADVICE', true)]).toEqual([false, false]);
  });

  it('is defined once', () => {
    expect(filesMatching(/function levelOf\w*\(/, SUITE, 'src/rules/catalogue.ts')).toEqual([]);
  });
});

describe('whether an error body names the route', () => {
  it('takes the route with or without the base path, decoded, with trailing slashes, never another', () => {
    expect(namesRoute('/api/v1/customers', '/v1/customers')).toBe(true);
    expect(namesRoute('v1/customers/', '/v1/customers')).toBe(true);
    expect(namesRoute('/api%2Fv1%2Fcustomers?page=9', '/v1/customers')).toBe(true);
    expect(namesRoute('/v1/user/me', '/v1/customers')).toBe(false);
  });

  it('is linear on a path of 5 MiB of slashes', () => {
    const started = performance.now();
    expect(namesRoute(`/${'/'.repeat(5 * 1024 * 1024)}x`, '/v1/customers')).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('is defined once', () => {
    expect(filesMatching(/function namesRoute\(/, SUITE, 'src/checks/invariants.ts')).toEqual([]);
  });
});

describe('the interrupted exit codes', () => {
  it('are spelled once, in common/exit-codes.ts', () => {
    expect(
      filesMatching(
        /(===?|:|=)\s*(130|143)\b(?!\s*(ms|MB))/,
        ['src', 'load', 'common'],
        'common/exit-codes.ts',
      ).filter((path) => !path.startsWith('src/reference/')),
    ).toEqual([]);
  });
});

describe("levels from the spec's words", () => {
  it('every advice names its source, and no MUST or SHOULD carries one', () => {
    for (const rule of RULES) {
      if (rule.level === 'ADVICE') expect(rule.source, rule.id).toMatch(/\w{4,}/);
      else expect(rule.source, rule.id).toBeUndefined();
    }
    expect(
      RULES.filter((r) => r.level === 'ADVICE')
        .map((r) => r.id)
        .sort(),
    ).toEqual(
      ['GEN-03', 'PAG-12', 'PAG-13', 'PET-10', 'PET-11', 'PET-13', 'RATE-01', 'RATE-03', 'RATE-04'].sort(),
    );
  });
});
