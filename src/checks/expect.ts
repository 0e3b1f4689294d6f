// The suites' `expect`: vitest's matchers, whose failure becomes a failure object (failure.ts) made
// from what the check asked (the matcher, its argument, the value, the check's own words), never
// parsed out of vitest's message. The values are written whole: check() redacts the failure before
// any sink cuts it.
import { expect as vitestExpect } from 'vitest';
import { exactJsonText } from '../client/exact-json.ts';
import { CheckFailed } from './failure.ts';

/** A value as a failure shows it: strings and objects as JSON (whole), the rest as written. */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  try {
    return exactJsonText(value) ?? String(value);
  } catch {
    return String(value);
  }
}

type Words = (expected: string, negated: boolean) => string;

/** What each matcher the suites use expects, in a person's words. */
const EXPECTED: Record<string, Words> = {
  toBe: (e, not) => (not ? `anything but ${e}` : e),
  toEqual: (e, not) => (not ? `a change from ${e}` : e),
  toStrictEqual: (e, not) => (not ? `a change from ${e}` : e),
  toMatchObject: (e, not) => `${not ? 'no' : 'an'} object with ${e}`,
  toContain: (e, not) => `${not ? 'nothing' : 'something'} containing ${e}`,
  toMatch: (e, not) => `${not ? 'no' : 'a'} text matching ${e}`,
  toBeDefined: (_e, not) => (not ? 'none' : 'a value'),
  toBeUndefined: (_e, not) => (not ? 'a value' : 'none'),
  toBeTruthy: (_e, not) => (not ? 'a false value' : 'a true value'),
  toBeFalsy: (_e, not) => (not ? 'a true value' : 'a false value'),
  toBeTypeOf: (e, not) => `${not ? 'no' : 'a'} value of type ${e}`,
  toBeLessThanOrEqual: (e, not) => (not ? `more than ${e}` : `at most ${e}`),
  toBeGreaterThanOrEqual: (e, not) => (not ? `less than ${e}` : `at least ${e}`),
  toBeLessThan: (e, not) => (not ? `at least ${e}` : `less than ${e}`),
  toBeGreaterThan: (e, not) => (not ? `at most ${e}` : `more than ${e}`),
  toHaveLength: (e, not) => `${not ? 'any length but' : 'length'} ${e}`,
};

/** The failure of `expect(actual, what).[not.]matcher(...args)`, from those parts alone. */
export function matcherFailure(
  matcher: string,
  args: readonly unknown[],
  actual: unknown,
  what: string | undefined,
  negated: boolean,
): CheckFailed {
  const argument = args.length ? shownValue(args[0]) : '';
  const words = EXPECTED[matcher];
  const expected = words
    ? words(argument, negated)
    : `${negated ? 'not ' : ''}${matcher}${args.length ? ` ${argument}` : ''}`;
  const got = shownValue(actual);
  return new CheckFailed({
    message: `${what ?? 'the value'}: expected ${expected}, got ${got}`,
    expected,
    actual: got,
  });
}

const isAssertion = (error: unknown) => error instanceof Error && error.name === 'AssertionError';

function wrap<A extends object>(
  assertion: A,
  actual: unknown,
  what: string | undefined,
  negated: boolean,
): A {
  return new Proxy(assertion, {
    get(target, prop) {
      if (prop === 'not') return wrap(Reflect.get(target, prop) as A, actual, what, !negated);
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        try {
          return value.apply(target, args);
        } catch (error) {
          throw isAssertion(error) ? matcherFailure(prop, args, actual, what, negated) : error;
        }
      };
    },
  });
}

/** vitest's `expect(value, what)`, failing with a failure object (and `expect.fail(message)`). */
export const expect = Object.assign(
  <T>(actual: T, what?: string) => wrap(vitestExpect(actual, what), actual, what, false),
  {
    fail(message: string): never {
      throw new CheckFailed({ message });
    },
  },
);
