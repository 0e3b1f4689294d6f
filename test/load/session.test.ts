// One token per virtual user, renewed once on SESSION_EXPIRED; and reading total_pages.
import { describe, expect, it } from 'vitest';
import { pageCount, readableSize } from '../../load/lib/pages.ts';
import { VuSession } from '../../load/lib/session.ts';

const expired = {
  status: 401,
  body: JSON.stringify({ code: 'SESSION_EXPIRED', message: 'm', status_code: 401 }),
};
const ok = { status: 200, body: '{"id":"u1"}' };

describe('VuSession', () => {
  it('asks for a token once and reuses it', () => {
    let issued = 0;
    const session = new VuSession(() => `t${++issued}`);
    const seen: string[] = [];
    const record = (t: string) => {
      seen.push(t);
      return ok;
    };
    session.send(record);
    session.send(record);
    expect(seen).toEqual(['t1', 't1']);
    expect(issued).toBe(1);
    expect(session.renewalCount()).toBe(0);
  });

  it('renews on SESSION_EXPIRED and repeats the request once with the new token', () => {
    let issued = 0;
    const session = new VuSession(() => `t${++issued}`);
    const seen: string[] = [];
    const outcome = session.send((t) => {
      seen.push(t);
      return t === 't1' ? expired : ok;
    });
    expect(outcome).toEqual({ response: ok, renewed: true });
    expect(seen).toEqual(['t1', 't1', 't2']);
    expect(session.renewalCount()).toBe(1);
    expect(session.token()).toBe('t2');
  });

  it('takes a second SESSION_EXPIRED as final instead of renewing forever', () => {
    let issued = 0;
    const session = new VuSession(() => `t${++issued}`);
    let calls = 0;
    const outcome = session.send(() => {
      calls++;
      return expired;
    });
    expect(outcome.response).toBe(expired);
    expect(calls).toBe(3);
    expect(issued).toBe(2);
  });

  it('reads no success body, and asks an error again with its body kept: that answer decides', () => {
    const session = new VuSession(() => 't1');
    const asked: boolean[] = [];
    const discarded = { status: 401, body: null };
    const outcome = session.send((_t, keep) => {
      asked.push(keep);
      return keep ? { status: 401, body: '{"code":"UNAUTHORIZED"}' } : discarded;
    });
    expect(asked).toEqual([false, true]);
    expect(outcome).toEqual({ response: { status: 401, body: '{"code":"UNAUTHORIZED"}' }, renewed: false });
    const successes: boolean[] = [];
    session.send((_t, keep) => {
      successes.push(keep);
      return ok;
    });
    const limited: boolean[] = [];
    session.send((_t, keep) => {
      limited.push(keep);
      return { status: 429, body: null };
    });
    expect(successes).toEqual([false]);
    expect(limited).toEqual([false]);
  });

  it('asks nothing twice when the caller keeps the body anyway', () => {
    let issued = 0;
    const session = new VuSession(() => `t${++issued}`);
    const seen: string[] = [];
    const outcome = session.send((t, keep) => {
      seen.push(`${t}:${keep}`);
      return t === 't1' ? expired : ok;
    }, true);
    expect(outcome.renewed).toBe(true);
    expect(seen).toEqual(['t1:true', 't2:true']);
  });

  it('lets a refused token request fail the iteration', () => {
    const session = new VuSession(() => {
      throw new Error('token request refused: HTTP 401');
    });
    expect(() => session.send(() => ok)).toThrow(/token request refused/);
  });
});

describe('pageCount', () => {
  it('reads pagination.total_pages and ignores anything else', () => {
    expect(pageCount(JSON.stringify({ data: [], pagination: { total_pages: 3 } }))).toBe(3);
    expect(pageCount(JSON.stringify({ pagination: { total_pages: 0 } }))).toBeUndefined();
    expect(pageCount(JSON.stringify({ pagination: { total_pages: '3' } }))).toBeUndefined();
    expect(pageCount('not json')).toBeUndefined();
    expect(pageCount(null)).toBeUndefined();
  });
});

describe('readableSize', () => {
  it('lets a 200 be read whole only when it declares at most 1 MiB', () => {
    expect(readableSize(200, '4096')).toBe(true);
    expect(readableSize(200, String(1024 * 1024))).toBe(true);
    expect(readableSize(200, String(1024 * 1024 + 1))).toBe(false);
    expect(readableSize(200, undefined)).toBe(false);
    expect(readableSize(200, '12, 12')).toBe(false);
    expect(readableSize(302, '10')).toBe(false);
  });
});
