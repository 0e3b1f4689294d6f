// A check failure as a person reads it: plain words, and no stack frames into the suite's own
// code, unless CONFORMANCE_VERBOSE=1 asks for them (debugging the suite itself).
import { afterEach, describe, expect, it } from 'vitest';
import { plainFailure } from '../../src/checks/define.ts';

const before = process.env.CONFORMANCE_VERBOSE;
afterEach(() => {
  if (before === undefined) delete process.env.CONFORMANCE_VERBOSE;
  else process.env.CONFORMANCE_VERBOSE = before;
});

function failure(): Error {
  const error = new Error('total_pages on page 2: expected 3 to be 2 // Object.is equality');
  error.name = 'AssertionError';
  return error;
}

describe('plainFailure', () => {
  it('rewrites the expectation and drops the stack frames', () => {
    delete process.env.CONFORMANCE_VERBOSE;
    const error = failure();
    expect(error.stack).toMatch(/\n\s+at /);
    plainFailure(error);
    expect(error.message).toBe('total_pages on page 2: expected 2, got 3');
    expect(error.stack).toBe('AssertionError: total_pages on page 2: expected 2, got 3');
  });

  it('keeps the frames with CONFORMANCE_VERBOSE=1', () => {
    process.env.CONFORMANCE_VERBOSE = '1';
    const error = failure();
    plainFailure(error);
    expect(error.message).toBe('total_pages on page 2: expected 2, got 3');
    expect(error.stack).toMatch(/\n\s+at /);
  });
});
