// One token per virtual user, renewed once on SESSION_EXPIRED; and reading total_pages.
import { describe, expect, it } from 'vitest';
import { pageCount } from '../../load/lib/pages.ts';
import { mayBeSessionExpired, VuSession } from '../../load/lib/session.ts';

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
    expect(seen).toEqual(['t1', 't2']);
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
    expect(calls).toBe(2);
    expect(issued).toBe(2);
  });

  it('takes an answer whose body was not read (null) as it came: no renewal without the code', () => {
    let issued = 0;
    const session = new VuSession(() => `t${++issued}`);
    const unread = { status: 401, body: null };
    const outcome = session.send(() => unread);
    expect(outcome).toEqual({ response: unread, renewed: false });
    expect(issued).toBe(1);
  });

  it('lets a refused token request fail the iteration', () => {
    const session = new VuSession(() => {
      throw new Error('token request refused: HTTP 401');
    });
    expect(() => session.send(() => ok)).toThrow(/token request refused/);
  });
});

describe('mayBeSessionExpired', () => {
  it('is any error but a 429 (the spec does not show the status of SESSION_EXPIRED)', () => {
    expect([200, 204, 302, 399, 429].map(mayBeSessionExpired)).toEqual([false, false, false, false, false]);
    expect([400, 401, 403, 428, 430, 500, 503].every(mayBeSessionExpired)).toBe(true);
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
