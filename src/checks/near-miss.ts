// Near misses of a secret: wrong values that a server comparing only part of the secret, or
// comparing it loosely, would take for the right one. A far-off wrong secret proves only that
// the server compares something; these prove that it compares all of it, exactly.

export interface NearMiss {
  /** What the near miss is, for the failure message (never the value: it is built from a secret). */
  what: string;
  value: string;
}

/** Another character than `c`, of the same kind where possible (a letter for a letter, ...). */
function other(c: string): string {
  if (/[0-9]/.test(c)) return c === '7' ? '3' : '7';
  if (/[a-z]/.test(c)) return c === 'q' ? 'z' : 'q';
  if (/[A-Z]/.test(c)) return c === 'Q' ? 'Z' : 'Q';
  return c === '-' ? '_' : '-';
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** The near misses of a secret, each different from it (duplicates and the secret itself dropped). */
export function nearMisses(secret: string): NearMiss[] {
  const chars = [...secret];
  const last = chars.length - 1;
  const misses: NearMiss[] = [
    {
      what: 'all but the last character',
      value: [...chars.slice(0, last), other(chars[last] ?? 'a')].join(''),
    },
    { what: 'all but the first character', value: [other(chars[0] ?? 'a'), ...chars.slice(1)].join('') },
    {
      what: 'a long prefix (three quarters of it)',
      value: chars.slice(0, Math.max(1, Math.ceil((chars.length * 3) / 4))).join(''),
    },
    { what: 'the same letters in the other case', value: swapCase(secret) },
    { what: 'the secret plus one character', value: `${secret}${other(chars[last] ?? 'a')}` },
    { what: 'the secret minus its last character', value: chars.slice(0, last).join('') },
  ];
  const seen = new Set<string>([secret]);
  return misses.filter((m) => {
    if (m.value === '' || seen.has(m.value)) return false;
    seen.add(m.value);
    return true;
  });
}

/**
 * The headers a client can set to claim another address. A server that reads any of them for an
 * address-pinned key lets a leaked key through from anywhere.
 */
export function addressClaims(address: string): Record<string, string> {
  return {
    'x-forwarded-for': address,
    forwarded: `for=${address}`,
    'x-real-ip': address,
    'x-client-ip': address,
    'client-ip': address,
    'x-originating-ip': address,
    'x-remote-ip': address,
    'x-remote-addr': address,
    'x-cluster-client-ip': address,
    'true-client-ip': address,
    'cf-connecting-ip': address,
    'fastly-client-ip': address,
    'x-forwarded': `for=${address}`,
    'forwarded-for': address,
  };
}

/** What a near miss got: refused (a 4xx), or the status it was let through with. */
export interface NearMissAnswer {
  what: string;
  status: number;
}

/**
 * The near misses a target did not refuse with a 4xx, as one line for a failure message
 * ("all but the last character (HTTP 200)"); '' when every one was refused.
 */
export function acceptedNearMisses(answers: readonly NearMissAnswer[]): string {
  return answers
    .filter((a) => a.status < 400 || a.status > 499)
    .map((a) => `${a.what} (HTTP ${a.status})`)
    .join(', ');
}
