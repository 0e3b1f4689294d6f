// The rules both sides of the k6 boundary apply live once, in common/: k6-safe modules
// (no Node, no k6 imports) that the suite (src/) and the k6 scripts (load/) both import. These
// tests fail when a second copy of a rule comes back on either side.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guard } from '../../common/guard.ts';
import { parseRetryAfter } from '../../common/retry-after.ts';
import { BOUNDED_OPTIONS } from '../../load/lib/bounded.ts';
import { productionRefusal } from '../../load/lib/config.ts';
import type { ApiResponse } from '../../src/client/index.ts';
import { parseRetryAfter as clientParse, isSessionExpired } from '../../src/client/index.ts';
import { guard as suiteGuard } from '../../src/config/index.ts';

const ROOT = join(import.meta.dirname, '../..');
const SHARED = join(ROOT, 'common');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const PRODUCT = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'load'))].filter(
  (path) => !path.startsWith(SHARED),
);

/** Product files (outside common/) whose code matches the pattern. */
function definedOutsideShared(pattern: RegExp): string[] {
  return PRODUCT.filter((path) => pattern.test(readFileSync(path, 'utf8'))).map((path) =>
    relative(ROOT, path),
  );
}

describe('common/', () => {
  it('is k6-safe: its modules import only each other', () => {
    for (const path of tsFiles(SHARED)) {
      const imports = [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const target of imports) expect(target, relative(ROOT, path)).toMatch(/^\.\/[\w-]+\.ts$/);
    }
  });

  it('holds the one Retry-After grammar: the client uses it, nobody parses the header again', () => {
    expect(clientParse).toBe(parseRetryAfter);
    expect(definedOutsideShared(/function\s+(parseRetryAfter|retryAfterSeconds)\b/)).toEqual([]);
  });

  it('holds the one production guard: the suite uses it and the k6 scripts refuse with its reason', () => {
    expect(suiteGuard).toBe(guard);
    expect(definedOutsideShared(/function\s+guard\b|ALLOW_PRODUCTION_WRITES=yes to allow/)).toEqual([]);
    const verdict = guard({ target: 'production', allowProductionWrites: false }, 'load');
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed)
      expect(productionRefusal({ target: 'production', allowProductionWrites: false })).toContain(
        verdict.reason,
      );
  });

  it('holds the one error-code and SESSION_EXPIRED predicate: nobody reads the code or names SESSION_EXPIRED again', () => {
    // Reading `.code` off an error body, or spelling the code, anywhere else is a second copy
    // (the reference server produces the code; it does not read it, so it is not product code here).
    const outside = definedOutsideShared(
      /\.code\s*===?\s*'SESSION_EXPIRED'|\{ code\?: unknown \}|typeof body\?\.code/,
    ).filter((path) => !path.startsWith('src/reference/'));
    expect(outside).toEqual([]);
    const answer = (body: unknown, isJson = true) =>
      ({ status: 401, body, isJson }) as unknown as ApiResponse;
    expect(isSessionExpired(answer({ code: 'SESSION_EXPIRED' }))).toBe(true);
    expect(isSessionExpired(answer({ code: 'SESSION_EXPIRED' }, false))).toBe(false);
    expect(isSessionExpired(answer({ code: 'TOKEN_EXPIRED' }))).toBe(false);
  });

  it('holds the one origin rule: both halves ask it before every request, nobody decides origins again', () => {
    // A second copy would be an origin, redirect or path-segment function, a comparison of
    // origins or hosts, or redirects switched back on anywhere outside common/origin.ts.
    expect(
      definedOutsideShared(
        /function\s+(originOf|allowedOrigins?|redirectOrigin|pathSegment)\b|maxRedirections|followRedirects?\s*:\s*true|maxRedirects:\s*[1-9]|redirects:\s*[1-9]/,
      ).filter((path) => !path.startsWith('src/reference/')),
    ).toEqual([]);
    // Where requests are sent (the client, the k6 scripts), no origin is compared but by the rule.
    // (Reading which service a recorded exchange belongs to, src/checks/invariants.ts, sends nothing.)
    expect(
      definedOutsideShared(/\.origin\s*[!=]==?|[!=]==?\s*\w+\.origin\b/).filter(
        (path) => path.startsWith('src/client/') || path.startsWith('load/'),
      ),
    ).toEqual([]);
    // The client's transport and the k6 adapter import it; the origin check sits on their one send.
    for (const [file, call] of [
      ['src/client/transport.ts', /allowedOrigin\(out\.url\.href/],
      ['load/lib/k6/http.ts', /allowedOrigin\(url, origins\(config, control\)\)/],
    ] as const) {
      const code = readFileSync(join(ROOT, file), 'utf8');
      expect(code, file).toMatch(/from '[./]+\/common\/origin\.ts'/);
      expect(code, file).toMatch(call);
    }
    // Every k6 request goes through load/lib/k6/http.ts: no script calls k6/http's senders itself.
    const k6Senders = definedOutsideShared(
      /\bhttp\.(get|post|put|patch|del|request|batch|asyncRequest)\(/,
    ).filter((path) => path.startsWith('load/') && path !== 'load/lib/k6/http.ts');
    expect(k6Senders).toEqual([]);
    // Ids from the target become paths only through pathSegment: no other encoder of path values,
    // and no request path in a suite or in src/ interpolates a value without it.
    expect(definedOutsideShared(/encodeURIComponent\(String\(value\)\)/)).toEqual([]);
    const rawPaths = [...PRODUCT, ...tsFiles(join(ROOT, 'suites'))]
      .filter((path) => !relative(ROOT, path).startsWith('src/reference/'))
      .filter((path) => /\bpath:\s*`[^`]*\$\{(?!pathSegment\()/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(ROOT, path));
    expect(rawPaths).toEqual([]);
  });

  it('holds the configuration rules once: target names, addresses, the switch, the timeout, this machine', () => {
    // Both sides read values through common/config-rules.ts; a rule written again elsewhere
    // (a list of target names, the timeout cap, a loopback pattern, the switch's spelling, an
    // address parsed with URL) is a second copy that can drift (issue 25: a .env one accepted and
    // the other refused).
    const second = definedOutsideShared(
      /'local',\s*'staging',\s*'production'|600_?000|\^127\\\.|=== 'yes'|function\s+(isLoopbackHost|urlHost|onThisMachine)\b|HEADER_SAFE\s*=|MIN_SECRET_LENGTH\s*=|DEMO_SECRETS[^=\n]*=\s*\{/,
    ).filter((path) => !path.startsWith('src/reference/'));
    expect(second).toEqual([]);
    for (const file of ['src/config/validate.ts', 'load/lib/config.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toMatch(/from '[./]+\/common\/config-rules\.ts'/);
    }
  });

  it('keeps every k6 script bounded: no redirect followed, bodies discarded unless kept, redirects a failure', () => {
    for (const script of ['load/release.ts', 'load/rate-limit.ts', 'load/flag-cache.ts']) {
      const code = readFileSync(join(ROOT, script), 'utf8');
      expect(code, script).toMatch(/\.\.\.BOUNDED_OPTIONS,/);
      expect(code, script).toMatch(/\.\.\.BOUNDED_THRESHOLDS/);
    }
    expect(BOUNDED_OPTIONS).toEqual({ maxRedirects: 0, discardResponseBodies: true });
    // A body is kept only through the bounded read (load/lib/k6/http.ts readBounded): no script
    // keeps one itself, and no other module of load/ asks k6 for a body.
    const keeps = definedOutsideShared(/keepBody|responseType:\s*'(text|binary)'/).filter(
      (path) => path.startsWith('load/') && path !== 'load/lib/k6/http.ts',
    );
    expect(keeps).toEqual([]);
    const http = readFileSync(join(ROOT, 'load/lib/k6/http.ts'), 'utf8');
    expect(http.match(/keepBody: (true|kept)/g)).toEqual(['keepBody: kept', 'keepBody: true']);
    expect(http).toMatch(/'accept-encoding': 'identity'/);
  });

  it('is not confused with the launcher: src/ has no load/ folder (the Node side of npm run load is src/launcher/)', () => {
    expect(readdirSync(join(ROOT, 'src'))).not.toContain('load');
    expect(readdirSync(join(ROOT, 'src'))).toContain('launcher');
  });
});
