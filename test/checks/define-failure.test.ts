// A check failure as a person reads it on the console: plain words, safe for a terminal and a CI
// log, capped, redacted before it is cut, and no stack frames into the suite's own code unless
// --verbose asks for them (debugging the suite itself).
import { describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { CONSOLE_FAILURE_CAP, consoleError, failureOf } from '../../src/checks/define.ts';
import { expect as checkExpect } from '../../src/checks/expect.ts';
import { CheckFailed, withRule } from '../../src/checks/failure.ts';

/** A suite's matcher failing (src/checks/expect.ts): a failure object, not vitest's words. */
function matcherError(): Error {
  try {
    checkExpect(3, 'total_pages on page 2').toBe(2);
  } catch (error) {
    return error as Error;
  }
  throw new Error('no failure');
}

const SECRET = 'sixteen-char-sec';
const redact = createSecretFilter([SECRET]).deep;

describe('the console error of a failed check', () => {
  it('says the expectation in plain words and drops the stack frames', () => {
    const original = matcherError();
    expect(original.stack).toMatch(/\n\s+at /);
    const error = consoleError(failureOf(original), original, redact);
    expect(error.message).toBe('total_pages on page 2: expected 2, got 3');
    expect(error.stack).toBe('AssertionError: total_pages on page 2: expected 2, got 3');
  });

  it('keeps the frames when verbose (--verbose)', () => {
    const original = matcherError();
    const error = consoleError(failureOf(original), original, redact, true);
    expect(error.message).toBe('total_pages on page 2: expected 2, got 3');
    expect(error.stack).toMatch(/\n\s+at /);
  });

  it('redacts the quote whole before any cut, and shows no escape or workflow command', () => {
    const quote = `${'x'.repeat(290)} ${SECRET} \u001b]52;c;ZXZpbA==\u0007\n::add-mask::exit`;
    const thrown = new CheckFailed({ message: 'the error body: expected a JSON error body', quote });
    const error = consoleError(redact(failureOf(thrown)), thrown, redact);
    // The quote is cut at 300 characters by the reason: cut first, 8 of 16 characters would show.
    expect(error.message).not.toContain(SECRET.slice(0, 8));
    expect(error.message).not.toContain('\u001b');
    expect(error.stack).not.toMatch(/^::/m);
    expect(Object.keys(error).filter((k) => k !== 'name')).toEqual([]);
  });

  it('is capped', () => {
    const original = new CheckFailed({ message: `pet ${'n'.repeat(4 * 1024 * 1024)}: refused` });
    const error = consoleError(failureOf(original), original, redact);
    expect(error.message.length).toBeLessThan(CONSOLE_FAILURE_CAP + 100);
    expect(error.message).toMatch(/more characters\]$/);
  });
});

describe('the rule of a failure', () => {
  it("is the assertion's when it names one, else the check's when the check proves one rule", () => {
    expect(withRule({ message: 'm' }, ['PAG-03'])).toEqual({ message: 'm', rule: 'PAG-03' });
    expect(withRule({ message: 'm', rule: 'ERR-01' }, ['PAG-03'])).toEqual({ message: 'm', rule: 'ERR-01' });
    expect(withRule({ message: 'm' }, ['GNR-01', 'GNR-03'])).toEqual({ message: 'm' });
  });
});
