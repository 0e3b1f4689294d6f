// One-line errors: firstLine and the one reachability verdict, and a scan that keeps them the only copies.
import { describe, expect, it } from 'vitest';
import { firstLine, TransportError, unreachableReason } from '../../src/client/index.ts';
import { filesMatching } from '../support/sources.ts';

/** Files of src/ other than src/client/errors.ts whose text matches `pattern`. */
const filesWith = (pattern: RegExp) => filesMatching(pattern, ['src'], 'src/client/errors.ts');

describe('firstLine', () => {
  it('is the first line of an error message, a text, or whatever else was thrown', () => {
    expect(firstLine(new Error('bad value\n    at parse (x.ts:1:1)'))).toBe('bad value');
    expect(firstLine('one\ntwo')).toBe('one');
    expect(firstLine({ message: 'from a non-Error\nmore' })).toBe('from a non-Error');
    expect(firstLine(42)).toBe('42');
    expect(firstLine(undefined)).toBe('undefined');
    expect(firstLine(new Error(''))).toBe('');
  });

  it('is the only place in src/ that cuts a message to its first line', () => {
    // A second copy (`.message.split('\n')[0]`, a local firstLine/oneLine) would drift from this one.
    expect(filesWith(/split\(\s*['"]\\n['"]\s*\)\s*\[0\]/)).toEqual([]);
    expect(
      filesWith(/(?:function|const)\s+(?:firstLine|messageOf)\b|function\s+oneLine\s*\(\s*error/),
    ).toEqual([]);
  });
});

describe('unreachableReason', () => {
  it('is the message of a transport error that got no answer, and undefined for anything that answered', () => {
    for (const kind of ['dns', 'refused', 'timeout', 'reset', 'tls'] as const) {
      expect(unreachableReason(new TransportError(kind, `${kind} happened`))).toBe(`${kind} happened`);
    }
    // A body over the cap is an answer: the target is there to be checked.
    expect(unreachableReason(new TransportError('too-large', 'too large'))).toBeUndefined();
    expect(unreachableReason(new TransportError('other', 'odd'))).toBeUndefined();
    expect(unreachableReason(new Error('connect ECONNREFUSED 127.0.0.1:9'))).toBeUndefined();
  });

  it('is decided in src/client/errors.ts alone: no other table of undici error codes', () => {
    expect(filesWith(/['"](?:ECONNREFUSED|ENOTFOUND|UND_ERR_CONNECT_TIMEOUT)['"]/)).toEqual([]);
  });
});
