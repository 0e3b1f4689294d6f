// Which bodies k6 may read (load/lib/bounded-read.ts): only an answer that declares at most 1 MiB
// with no content coding; a gate per kind of answer learns from the last one; a second ask only
// for what a script cannot go on without; and the report's note on what was not read.
import { describe, expect, it } from 'vitest';
import { MAX_READ_BYTES, UNBOUNDED_METRIC, UNREAD_METRIC } from '../../load/lib/bounded.ts';
import {
  afterAsk,
  header,
  isUnreadSubMetric,
  READ_PURPOSES,
  ReadGate,
  unboundedNote,
  unreadNote,
  unreadThresholds,
  whyUnreadable,
} from '../../load/lib/bounded-read.ts';

const len = (n: number | string) => ({ 'Content-Length': String(n) });

describe('whyUnreadable', () => {
  it('reads an answer that declares at most 1 MiB, and not one byte more', () => {
    expect(MAX_READ_BYTES).toBe(1024 * 1024);
    expect(whyUnreadable(200, len(0))).toBeUndefined();
    expect(whyUnreadable(200, len(MAX_READ_BYTES))).toBeUndefined();
    expect(whyUnreadable(200, len(MAX_READ_BYTES + 1))).toBe('too-large');
    expect(whyUnreadable(401, len(120))).toBeUndefined();
    expect(whyUnreadable(200, len(200 * 1024 * 1024))).toBe('too-large');
  });

  it('does not read an answer that declares no single length (chunked, endless, repeated, garbled)', () => {
    expect(whyUnreadable(200, {})).toBe('undeclared');
    expect(whyUnreadable(200, undefined)).toBe('undeclared');
    expect(whyUnreadable(200, { 'Transfer-Encoding': 'chunked' })).toBe('undeclared');
    // k6 joins repeated headers with ', '.
    expect(whyUnreadable(200, len('12, 12'))).toBe('undeclared');
    expect(whyUnreadable(200, len('-1'))).toBe('undeclared');
    expect(whyUnreadable(200, len('1e3'))).toBe('undeclared');
    expect(whyUnreadable(200, len('0x10'))).toBe('undeclared');
    expect(whyUnreadable(200, len(''))).toBe('undeclared');
    expect(whyUnreadable(200, len('1234567890123456'))).toBe('undeclared');
    expect(whyUnreadable(200, len(' 42 '))).toBeUndefined();
  });

  it('does not read a coded answer, whatever its declared length: k6 would inflate it without a cap', () => {
    for (const coding of ['gzip', 'GZIP', 'br', 'zstd', 'deflate', 'identity, gzip', 'x-unknown'])
      expect(whyUnreadable(200, { ...len(100), 'Content-Encoding': coding }), coding).toBe('encoded');
    expect(whyUnreadable(200, { ...len(100), 'Content-Encoding': 'identity' })).toBeUndefined();
    expect(whyUnreadable(200, { ...len(100), 'content-encoding': ' Identity ' })).toBeUndefined();
    expect(whyUnreadable(200, { 'Content-Encoding': 'gzip' })).toBe('encoded');
  });

  it('finds the headers whatever the case of their names', () => {
    expect(header({ 'content-length': '5' }, 'Content-Length')).toBe('5');
    expect(header({ 'CONTENT-LENGTH': '5' }, 'content-length')).toBe('5');
    expect(header(undefined, 'content-length')).toBeUndefined();
    expect(whyUnreadable(200, { 'content-length': String(MAX_READ_BYTES + 1) })).toBe('too-large');
  });

  it('has nothing to bound where there is no body, and learns nothing from no answer', () => {
    for (const status of [101, 204, 304]) expect(whyUnreadable(status, {})).toBeUndefined();
    expect(whyUnreadable(205, {})).toBe('undeclared');
    expect(whyUnreadable(0, len(10))).toBe('no-answer');
  });
});

describe('ReadGate', () => {
  it('opens only after an answer of its kind declared a readable size, and closes after one that did not', () => {
    const gate = new ReadGate();
    expect(gate.open()).toBe(false);
    expect(gate.learn(200, len(300))).toBeUndefined();
    expect(gate.open()).toBe(true);
    expect(gate.learn(200, {})).toBe('undeclared');
    expect(gate.open()).toBe(false);
    gate.learn(429, len(80));
    expect(gate.open()).toBe(true);
    gate.learn(200, { ...len(80), 'Content-Encoding': 'gzip' });
    expect(gate.open()).toBe(false);
    gate.learn(200, len(MAX_READ_BYTES + 1));
    expect(gate.open()).toBe(false);
  });

  it('keeps what it knew when an ask got no answer (a timeout is not a size)', () => {
    const open = new ReadGate();
    open.learn(200, len(10));
    expect(open.learn(0, {})).toBe('no-answer');
    expect(open.open()).toBe(true);
    const closed = new ReadGate();
    closed.learn(200, {});
    closed.learn(0, len(10));
    expect(closed.open()).toBe(false);
  });
});

describe('afterAsk', () => {
  it('uses a body kept in its ask (read already: the residual the docs own)', () => {
    expect(afterAsk(true, undefined, 'flags')).toEqual({ step: 'use' });
    expect(afterAsk(true, 'undeclared', 'flags')).toEqual({ step: 'use' });
  });

  it('asks again, kept, only for what a script cannot go on without, and only after a readable answer', () => {
    for (const purpose of ['token', 'renewal', 'page-count', 'clock'] as const) {
      expect(READ_PURPOSES[purpose].askAgain).toBe(true);
      expect(afterAsk(false, undefined, purpose), purpose).toEqual({ step: 'ask-again' });
    }
    // A probe's polls are never doubled: their count and timing are what it measures.
    for (const purpose of ['flags', 'limit-poll'] as const) {
      expect(READ_PURPOSES[purpose].askAgain).toBe(false);
      expect(afterAsk(false, undefined, purpose), purpose).toEqual({ step: 'without' });
    }
  });

  it('goes on without a needed body that is too big, undeclared or coded, and says why (counted)', () => {
    for (const why of ['undeclared', 'too-large', 'encoded'] as const) {
      expect(afterAsk(false, why, 'token')).toEqual({ step: 'without', unread: why });
      expect(afterAsk(false, why, 'limit-poll')).toEqual({ step: 'without', unread: why });
    }
  });

  it('counts nothing when the body was not wanted, or no answer came', () => {
    expect(afterAsk(false, 'undeclared', undefined)).toEqual({ step: 'without' });
    expect(afterAsk(false, undefined, undefined)).toEqual({ step: 'without' });
    expect(afterAsk(false, 'no-answer', 'token')).toEqual({ step: 'without' });
  });
});

describe('the report of bodies not read', () => {
  it('has a sub-metric per reason and per purpose of the script, all plumbing', () => {
    const thresholds = unreadThresholds(['token', 'flags']);
    expect(Object.keys(thresholds).sort()).toEqual(
      [
        `${UNREAD_METRIC}{purpose:flags}`,
        `${UNREAD_METRIC}{purpose:token}`,
        `${UNREAD_METRIC}{why:encoded}`,
        `${UNREAD_METRIC}{why:too-large}`,
        `${UNREAD_METRIC}{why:undeclared}`,
      ].sort(),
    );
    for (const name of Object.keys(thresholds)) expect(isUnreadSubMetric(name)).toBe(true);
    expect(isUnreadSubMetric(UNREAD_METRIC)).toBe(false);
  });

  it('says nothing when every needed body was read', () => {
    expect(unreadNote({})).toBeUndefined();
    expect(unreadNote({ [UNREAD_METRIC]: { values: { count: 0 } } })).toBeUndefined();
  });

  it('says how many were not read, why, and what was therefore not judged', () => {
    const count = (n: number) => ({ values: { count: n } });
    const note = unreadNote({
      [UNREAD_METRIC]: count(5),
      [`${UNREAD_METRIC}{why:undeclared}`]: count(3),
      [`${UNREAD_METRIC}{why:encoded}`]: count(2),
      [`${UNREAD_METRIC}{why:too-large}`]: count(0),
      [`${UNREAD_METRIC}{purpose:flags}`]: count(4),
      [`${UNREAD_METRIC}{purpose:renewal}`]: count(1),
    });
    expect(note).toMatch(
      /^5 answers not read, so not judged \(3 declared no length .*; 2 had a content coding/,
    );
    expect(note).not.toContain('more than 1 MiB');
    expect(note).toContain(
      'Not judged: whether an error answer was SESSION_EXPIRED (no renewal without it): 1',
    );
    expect(note).toContain('the flag data of a poll (no change seen in it): 4');
    expect(note).toContain('at most 1 MiB (Content-Length) with no content coding');
    expect(unreadNote({ [UNREAD_METRIC]: count(1) })).toMatch(/^1 answer not read/);
  });

  it('says when bodies were read although their own answer then declared no readable size (the residual)', () => {
    expect(unboundedNote({})).toBeUndefined();
    expect(unboundedNote({ [UNBOUNDED_METRIC]: { values: { count: 0 } } })).toBeUndefined();
    expect(unboundedNote({ [UNBOUNDED_METRIC]: { values: { count: 1 } } })).toMatch(
      /^1 body was read although its own answer .* bounded only by the timeout/,
    );
    expect(unboundedNote({ [UNBOUNDED_METRIC]: { values: { count: 4 } } })).toMatch(
      /^4 bodies were read although their/,
    );
  });
});
