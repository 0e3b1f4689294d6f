// Near misses: each differs from the secret, each is the near miss it claims to be, and a
// failure names the near misses a target let through.
import { describe, expect, it } from 'vitest';
import { acceptedNearMisses, addressClaims, nearMisses } from '../../src/checks/near-miss.ts';

const SECRET = 'local-api-key-secret-do-not-use-elsewhere';

describe('near misses of a secret', () => {
  const misses = nearMisses(SECRET);
  const missNamed = (what: string) => misses.find((m) => m.what.startsWith(what))?.value ?? '';

  it('are all different from the secret and from each other', () => {
    const values = misses.map((m) => m.value);
    expect(values).not.toContain(SECRET);
    expect(new Set(values).size).toBe(values.length);
    expect(misses.map((m) => m.what)).toHaveLength(6);
  });

  it('each is the near miss it names', () => {
    expect(missNamed('all but the last').slice(0, -1)).toBe(SECRET.slice(0, -1));
    expect(missNamed('all but the last').at(-1)).not.toBe(SECRET.at(-1));
    expect(missNamed('all but the first').slice(1)).toBe(SECRET.slice(1));
    expect(SECRET.startsWith(missNamed('a long prefix'))).toBe(true);
    expect(missNamed('a long prefix').length).toBeGreaterThanOrEqual(SECRET.length * 0.75);
    expect(missNamed('the same letters').toLowerCase()).toBe(SECRET.toLowerCase());
    expect(missNamed('the secret plus')).toHaveLength(SECRET.length + 1);
    expect(missNamed('the secret minus')).toBe(SECRET.slice(0, -1));
  });

  it('a secret without letters has no other-case near miss', () => {
    expect(nearMisses('12345678').map((m) => m.what)).not.toContain('the same letters in the other case');
  });

  it('names the near misses that were not refused with a 4xx', () => {
    expect(
      acceptedNearMisses([
        { what: 'a', status: 401 },
        { what: 'b', status: 200 },
        { what: 'c', status: 500 },
      ]),
    ).toBe('b (HTTP 200), c (HTTP 500)');
    expect(acceptedNearMisses([{ what: 'a', status: 403 }])).toBe('');
  });

  it('claims an address in every header a client can set for it', () => {
    const claims = addressClaims('198.51.100.23');
    expect(claims['x-forwarded-for']).toBe('198.51.100.23');
    expect(claims.forwarded).toBe('for=198.51.100.23');
    expect(claims['x-real-ip']).toBe('198.51.100.23');
  });
});
