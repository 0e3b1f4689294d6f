// The one message an invalid configuration prints: a count, then one line per problem naming the
// variable, what is wrong and what is expected; and never a secret value, however it got there.
import { describe, expect, it } from 'vitest';
import { type ConfigProblem, formatProblems } from '../../src/config/index.ts';
import { problemsOf, SECRETS, STAGING } from './helpers.ts';

/** Everything a user could see of the problems: the message and the problems themselves. */
function everythingShown(problems: ConfigProblem[]): string {
  return `${formatProblems(problems)}\n${JSON.stringify(problems)}`;
}

describe('formatProblems', () => {
  it('gives a count, then one line per problem: variable, what is wrong, what is expected', () => {
    const text = formatProblems([
      { variable: 'API_BASE_URL', problem: 'is not set', expected: 'a URL ending with /api/' },
      { variable: 'REQUEST_TIMEOUT_MS', problem: 'is "soon"', expected: 'a whole number' },
    ]);
    expect(text.split('\n')).toEqual([
      'Configuration invalid: 2 problems (see .env.example)',
      '  API_BASE_URL: is not set; expected a URL ending with /api/',
      '  REQUEST_TIMEOUT_MS: is "soon"; expected a whole number',
    ]);
  });

  it('says "1 problem" for one', () => {
    expect(formatProblems([{ variable: 'X', problem: 'p', expected: 'e' }])).toMatch(
      /^Configuration invalid: 1 problem /,
    );
  });

  it('names every problem of a real configuration, one line each', () => {
    const problems = problemsOf({ CONFORMANCE_TARGET: 'staging', REQUEST_TIMEOUT_MS: 'soon' });
    const lines = formatProblems(problems).split('\n');
    expect(lines).toHaveLength(problems.length + 1);
    for (const [i, p] of problems.entries())
      expect(lines[i + 1]).toMatch(new RegExp(`^  ${p.variable}: .+; expected .+`));
  });
});

describe('secret values never appear in a problem', () => {
  const LONG_SECRET = `long-secret-${'q7'.repeat(60)}-end`;

  it.each([
    ['a control character', 'bad\u0001secret-5a6b7c8d'],
    ['a line break', 'first-half-91e2\nsecond-half-0a7f'],
    ['a non-Latin-1 character', 'secret-☃-3c4d5e6f'],
  ])('even when the secret itself is malformed (%s)', (_what, secret) => {
    for (const name of ['CLIENT_SECRET', 'API_KEY_SECRET', 'PINNED_API_KEY_SECRET', 'EXPIRED_ACCESS_TOKEN']) {
      const problems = problemsOf({ ...STAGING, [name]: secret });
      expect(problems.map((p) => p.variable)).toContain(name);
      const shown = everythingShown(problems);
      for (const part of secret.split(/[\p{Cc}☃]/u)) expect(shown).not.toContain(part);
    }
  });

  it.each([
    'CONFORMANCE_TARGET',
    'API_BASE_URL',
    'PETSTORE_BASE_URL',
    'DISABLED_FEATURE_ROUTE',
    'ALLOW_PRODUCTION_WRITES',
    'REQUEST_TIMEOUT_MS',
    'CONFORMANCE_STRICT',
    'CONFORMANCE_SLOW',
    'REFERENCE_CONTROL_URL',
  ])('when a secret is pasted into %s', (name) => {
    for (const secret of Object.values(SECRETS)) {
      const problems = problemsOf({ ...STAGING, [name]: secret });
      expect(problems.map((p) => p.variable)).toEqual([name]);
      expect(everythingShown(problems)).not.toContain(secret);
    }
  });

  it('when a long secret is pasted into a quoted variable: not even the start of it', () => {
    // Quoting cuts long values short; cutting first and redacting after would show 77 characters.
    const problems = problemsOf({ ...STAGING, CLIENT_SECRET: LONG_SECRET, CONFORMANCE_TARGET: LONG_SECRET });
    expect(everythingShown(problems)).not.toContain(LONG_SECRET.slice(0, 20));
  });

  it('when a secret with a quote is pasted into a quoted variable: not even escaped', () => {
    const secret = 'se"cret-with-quote-8d9e';
    const problems = problemsOf({ ...STAGING, API_KEY_SECRET: secret, REQUEST_TIMEOUT_MS: secret });
    const shown = formatProblems(problems);
    expect(shown).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(shown).not.toContain('cret-with-quote');
  });

  it('when a secret is part of a longer value', () => {
    const problems = problemsOf({
      ...STAGING,
      API_BASE_URL: `https://example.com/${SECRETS.API_KEY_SECRET}/`,
    });
    expect(everythingShown(problems)).not.toContain(SECRETS.API_KEY_SECRET);
    expect(formatProblems(problems)).toContain('[REDACTED]');
  });

  it('when one secret contains another', () => {
    const outer = `${SECRETS.CLIENT_SECRET}-and-more-7e8f`;
    const problems = problemsOf({ ...STAGING, API_KEY_SECRET: outer, CONFORMANCE_TARGET: outer });
    const shown = everythingShown(problems);
    expect(shown).not.toContain(SECRETS.CLIENT_SECRET);
    expect(shown).not.toContain('-and-more-7e8f');
  });
});

describe('URL problems never show credentials or queries', () => {
  it.each([
    ['carried by an otherwise valid URL', 'https://admin:pw-91a2b3@example.com/api/'],
    ['carried by a URL that does not parse', 'https://admin:pw-91a2b3@exa mple.com/api/'],
    ['with a slash in the password', 'https://admin:pw/91a2b3@example.com/api/'],
    ['without a scheme', 'admin:pw-91a2b3@example.com/api/'],
    ['typed where the path starts', 'https://example.com/admin:pw-91a2b3@/api/?q=1'],
  ])('a user name and password %s', (_what, value) => {
    const problems = problemsOf({ ...STAGING, API_BASE_URL: value, REFERENCE_CONTROL_URL: value });
    expect(problems.map((p) => p.variable)).toEqual(['API_BASE_URL', 'REFERENCE_CONTROL_URL']);
    const shown = everythingShown(problems);
    expect(shown).not.toContain('91a2b3');
    expect(shown).not.toContain('admin');
  });

  it('a query, which often carries a token', () => {
    const problems = problemsOf({
      ...STAGING,
      API_BASE_URL: 'https://example.com/api/?access_token=tok-5f6e7d',
    });
    expect(problems[0]?.problem).toBe('"https://example.com/api/" has a query or fragment');
  });
});
