// The one origin rule (common/origin.ts): where a request may go, what a redirect is
// reported as, and how a value from the target becomes a path segment.
import { describe, expect, it } from 'vitest';
import { allowedOrigin, allowedOrigins, originOf, pathSegment, redirectOrigin } from '../../common/origin.ts';

const bases = {
  apiBaseUrl: 'http://127.0.0.1:4010/api/',
  petstoreBaseUrl: 'http://127.0.0.1:4011/petstore/v1',
};
const allowed = allowedOrigins(bases);

describe('originOf', () => {
  it('reads scheme, host and port, lower case, the default port written', () => {
    expect(originOf('HTTP://LocalHost/api/')).toBe('http://localhost:80');
    expect(originOf('https://staging.example.com/api/')).toBe('https://staging.example.com:443');
    expect(originOf('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(originOf('http://[::1]:8080/x')).toBe('http://[::1]:8080');
    expect(originOf('http://127.0.0.1:0080/x')).toBe('http://127.0.0.1:80');
  });

  it('refuses what two parsers could read differently (fail closed)', () => {
    for (const url of [
      'http://127.0.0.1:4010@127.0.0.2/api/', // user info: WHATWG and Go go to 127.0.0.2
      'http://127.0.0.2\\@127.0.0.1:4010/', // a backslash: WHATWG ends the authority there
      'http://127.0.0.1%2e/',
      'http:/127.0.0.1/',
      '//127.0.0.2/x',
      'ftp://127.0.0.1/',
      'http://127.0.0.1:99999/',
      'http://127.0.0.1:0/',
      ' http://127.0.0.1/',
      'javascript:alert(1)',
    ]) {
      expect(originOf(url), url).toBeUndefined();
    }
  });
});

describe('allowedOrigin', () => {
  it('lets requests go to the configured bases only', () => {
    expect(allowed).toEqual(['http://127.0.0.1:4010', 'http://127.0.0.1:4011']);
    expect(allowedOrigin('http://127.0.0.1:4010/api/v1/customers?page=2', allowed).allowed).toBe(true);
    expect(allowedOrigin('http://127.0.0.1:4011/petstore/v1/pets/7', allowed).allowed).toBe(true);
  });

  it('refuses another loopback address, the same host on another port, another scheme', () => {
    for (const url of [
      'http://127.0.0.2:4010/api/',
      'http://127.0.0.1:4012/api/',
      'https://127.0.0.1:4010/api/',
      'http://localhost:4010/api/',
      'http://127.0.0.1:4010@127.0.0.2/api/',
    ]) {
      const verdict = allowedOrigin(url, allowed);
      expect(verdict.allowed, url).toBe(false);
      if (!verdict.allowed) {
        expect(verdict.reason).toMatch(/^refused to send a request to /);
        expect(verdict.reason).not.toContain('/api/');
      }
    }
  });

  it('allows nothing when nothing is configured', () => {
    expect(allowedOrigin('http://127.0.0.1:4010/', []).allowed).toBe(false);
  });
});

describe('redirectOrigin', () => {
  const from = 'http://127.0.0.1:4010/api/v1/customers';
  it('names the Location origin only, never its path or query', () => {
    expect(redirectOrigin(302, 'http://127.0.0.2:9999/steal?key=abcdefgh', from)).toBe(
      'http://127.0.0.2:9999',
    );
    expect(redirectOrigin(307, 'http://127.0.0.1:4999/api/v1/auth/token', from)).toBe(
      'http://127.0.0.1:4999',
    );
    expect(redirectOrigin(301, '/api/v1/customers?page=2', from)).toBe('http://127.0.0.1:4010');
    expect(redirectOrigin(308, '//127.0.0.2/x', from)).toBe('an address that is not a plain http(s) URL');
    expect(redirectOrigin(302, '\u001b]52;c;aGk=\u0007', from)).toBe('http://127.0.0.1:4010');
    expect(redirectOrigin(302, 'gopher://x', from)).toBe('an address that is not a plain http(s) URL');
    expect(redirectOrigin(303, undefined, from)).toBe('no Location (303)');
  });

  it('is silent for answers that are not redirects', () => {
    for (const status of [200, 204, 299, 400, 429, 500]) {
      expect(redirectOrigin(status, 'http://127.0.0.2/', from)).toBeUndefined();
    }
  });
});

describe('pathSegment', () => {
  it('keeps every value from the target inside one segment', () => {
    const base = 'http://127.0.0.1:4011/petstore/v1/';
    for (const id of [
      "'",
      '`id`',
      '$(touch /tmp/x)',
      'a\nb',
      '../../api/v1/users',
      '...',
      '?q=1#f',
      '//127.0.0.2/x',
      'a b',
      '%2e%2e',
    ]) {
      const segment = pathSegment(id);
      expect(segment, id).toMatch(/^[A-Za-z0-9%_.~-]+$/);
      const url = new URL(`pets/${segment}`, base);
      expect(url.origin, id).toBe('http://127.0.0.1:4011');
      expect(url.pathname.startsWith('/petstore/v1/pets/'), id).toBe(true);
      expect(decodeURIComponent(url.pathname.slice('/petstore/v1/pets/'.length)), id).toBe(id);
      expect(url.search + url.hash, id).toBe('');
    }
    expect(pathSegment(7)).toBe('7');
    for (const id of ['.', '..', ''])
      expect(() => pathSegment(id), id).toThrow(/cannot be sent as a path segment/);
  });
});
