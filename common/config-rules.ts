// The configuration's rules, once for both halves: the target names, the base addresses, the
// production switch, the request timeout and what counts as this machine. src/config/validate.ts
// (which collects every problem, with the values quoted safely) and load/lib/config.ts (k6's
// direct-run path, one line at the first problem) both read values through these, so a
// configuration one accepts the other accepts (test/load/shared/config-rules.test.ts). Each rule
// answers with the value or a problem; the wording around a value is each side's own. k6-safe:
// k6 has no URL parser, so addresses are read by the origin rule's grammar (./origin.ts).
import { normalizeHost } from './host.ts';
import { plainUrl } from './origin.ts';
import { variableDefault } from './variables.ts';

export type Rule<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/**
 * Why a value was refused. `quoted`: the problem names the value (each side quotes it its own way,
 * secrets and user info hidden); the others never show it.
 */
export type Problem =
  | { kind: 'choice'; expected: string; quoted: true }
  | { kind: 'not-absolute'; quoted: true }
  | { kind: 'credentials' }
  | { kind: 'scheme'; scheme: string; quoted: true }
  | { kind: 'query'; quoted: true }
  | { kind: 'path'; quoted: true }
  | { kind: 'ending'; ending: string; quoted: true }
  | { kind: 'host'; quoted: true }
  | { kind: 'header' }
  | { kind: 'short' };

export type TargetName = 'local' | 'staging' | 'production';
export const TARGETS: readonly TargetName[] = ['local', 'staging', 'production'];

const ok = <T>(value: T): Rule<T> => ({ ok: true, value });
const refused = <T>(problem: Problem): Rule<T> => ({ ok: false, problem });

/** CONFORMANCE_TARGET: local, staging or production, case not minded; unset is local. */
export function readTarget(value: string | undefined): Rule<TargetName> {
  if (value === undefined) return ok('local');
  const found = TARGETS.find((t) => t === value.toLowerCase());
  return found
    ? ok(found)
    : refused({
        kind: 'choice',
        expected: 'one of local, staging, production (default local)',
        quoted: true,
      });
}

/**
 * The words every on/off variable takes, in any case: one list for all of them, so a value one
 * switch accepts no other refuses (`CONFORMANCE_STRICT=yes`, `ALLOW_PRODUCTION_WRITES=1`).
 */
export const SWITCH_ON: readonly string[] = ['1', 'yes', 'true', 'on'];
export const SWITCH_OFF: readonly string[] = ['0', 'no', 'false', 'off'];

/**
 * An on/off variable: one of the switch words (unset is the fallback). Anything else is refused
 * rather than read as either: someone who wrote `enabled` meant something, and guessing wrong
 * (writes to real money, or silently skipped checks) is worse than asking.
 */
export function readSwitch(value: string | undefined, fallback: boolean, meaning?: string): Rule<boolean> {
  if (value === undefined) return ok(fallback);
  const word = value.toLowerCase();
  if (SWITCH_ON.includes(word)) return ok(true);
  if (SWITCH_OFF.includes(word)) return ok(false);
  return refused({ kind: 'choice', expected: switchExpected(fallback, meaning), quoted: true });
}

/** What a switch expects, in words: the words, what on means, the default. */
export function switchExpected(fallback: boolean, meaning?: string): string {
  const words = (list: readonly string[]) => `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
  const on = meaning ? `, which ${meaning}` : '';
  return `on (${words(SWITCH_ON)}${on}) or off (${words(SWITCH_OFF)}), in any case; default ${fallback ? 'on' : 'off'}`;
}

/** ALLOW_PRODUCTION_WRITES: a switch, off unless set. */
export function readAllowSwitch(value: string | undefined): Rule<boolean> {
  return readSwitch(value, false, 'lets writes and load reach production');
}

export const DEFAULT_TIMEOUT_MS = Number(variableDefault('REQUEST_TIMEOUT_MS'));
export const MAX_TIMEOUT_MS = 600_000;

/** REQUEST_TIMEOUT_MS: whole milliseconds from 1 to 600000, digits only (no `1e3`, no `12ms`). */
export function readTimeout(value: string | undefined): Rule<number> {
  if (value === undefined) return ok(DEFAULT_TIMEOUT_MS);
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isInteger(n) && n >= 1 && n <= MAX_TIMEOUT_MS) return ok(n);
  return refused({
    kind: 'choice',
    expected: `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (default ${DEFAULT_TIMEOUT_MS})`,
    quoted: true,
  });
}

/** Spaces, control characters, non-ASCII, a backslash, or `.`/`..` segments (URL parsers would move them). */
const UNPLAIN_PATH = /[^\x21-\x7e]|\\|(^|\/)\.{1,2}(\/|$)/;

/**
 * An absolute http(s) URL without credentials, query or fragment, written plainly (the origin
 * rule's grammar), as `scheme://host[:port]/path` with scheme and host in lower case and a default
 * port left out. Its path is `/` when none is written.
 */
export function readHttpUrl(value: string): Rule<string> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  if (scheme === undefined) return refused({ kind: 'not-absolute', quoted: true });
  if (!/^https?$/i.test(scheme))
    return refused({ kind: 'scheme', scheme: `${scheme.toLowerCase()}:`, quoted: true });
  // User info anywhere before the path: never quoted (the part before `@` may be a password).
  const authority = value.slice(scheme.length + 3).split(/[/?#\\]/)[0] ?? '';
  if (value.slice(scheme.length + 1, scheme.length + 3) === '//' && authority.includes('@')) {
    return refused({ kind: 'credentials' });
  }
  const url = plainUrl(value);
  if (!url) return refused({ kind: 'not-absolute', quoted: true });
  // One spelling for both halves (127.1 is 127.0.0.1 to Node and not to k6): common/host.ts.
  const host = normalizeHost(url.host);
  if (!host.ok) return refused({ kind: 'host', quoted: true });
  url.host = host.host;
  if (/[?#]/.test(url.rest)) return refused({ kind: 'query', quoted: true });
  if (UNPLAIN_PATH.test(url.rest)) return refused({ kind: 'path', quoted: true });
  return ok(`${url.scheme}://${url.host}${url.explicitPort ? `:${url.port}` : ''}${url.rest || '/'}`);
}

/**
 * A base address: readHttpUrl, and its path ends as the spec says (`/api/` for the main service,
 * `/v1` for the pet demo); a missing or extra final slash is forgiven, the meaning is not in doubt.
 */
export function readBaseUrl(value: string, ending: '/api/' | '/v1'): Rule<string> {
  const read = readHttpUrl(value);
  if (!read.ok) return read;
  const url = read.value;
  if (ending === '/api/') {
    if (url.endsWith('/api/')) return ok(url);
    if (url.endsWith('/api')) return ok(`${url}/`);
  } else {
    if (url.endsWith('/v1')) return ok(url);
    if (url.endsWith('/v1/')) return ok(url.slice(0, -1));
  }
  return refused({ kind: 'ending', ending, quoted: true });
}

/**
 * What a problem says, without the value (each side puts the value, quoted its own way,
 * before it when the problem is `quoted`). Scheme names are letters, digits, `+.-` only.
 */
export function problemWords(problem: Problem): string {
  switch (problem.kind) {
    case 'not-absolute':
      return 'is not an absolute URL';
    case 'credentials':
      return 'carries a user name or password';
    case 'scheme':
      return `uses the ${problem.scheme} scheme`;
    case 'query':
      return 'has a query or fragment';
    case 'path':
      return 'has spaces, control or non-ASCII characters, a backslash or . segments in its path';
    case 'ending':
      return `does not end with ${problem.ending}`;
    case 'host':
      return 'has a host that reads as a number but is no IPv4 address (or a malformed IPv6 one)';
    case 'choice':
      return `is not ${problem.expected}`;
    case 'header':
      return 'contains control or non-Latin-1 characters';
    case 'short':
      return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  }
}

/**
 * Shorter secrets cannot be kept out of the reports: scrubbing a two-letter value would rewrite
 * every word that contains it. Real client and key secrets are far longer.
 */
export const MIN_SECRET_LENGTH = 8;

/** Header values must be Latin-1 without control characters, or undici refuses the request. */
const HEADER_SAFE = /^[\x20-\x7e\x80-\xff]+$/;

/** A credential (an id, a secret, a token): one that can travel in a header, a secret long enough to filter. */
export function readCredential(value: string, secret: boolean): Rule<string> {
  if (!HEADER_SAFE.test(value)) return refused({ kind: 'header' });
  if (secret && value.length < MIN_SECRET_LENGTH) return refused({ kind: 'short' });
  return ok(value);
}

/**
 * The embedded reference server's demo secrets, published in the docs. They open nothing but that
 * server, so meeting them with a remote target means the configuration was copied from an old
 * example: both halves stop instead of sending them to staging. (A test keeps this list equal to
 * the server's.)
 */
export const DEMO_SECRETS: Readonly<Record<string, string>> = {
  CLIENT_SECRET: 'local-client-secret-do-not-use-elsewhere',
  API_KEY_SECRET: 'local-api-key-secret-do-not-use-elsewhere',
  PINNED_API_KEY_SECRET: 'local-pinned-api-key-secret-do-not-use-elsewhere',
};

/**
 * The variables holding a demo secret while the target is remote (a reference server started by
 * hand on this machine takes them; anything else that gets them was configured from an old example).
 */
export function demoSecretsForRemote(
  target: TargetName,
  apiBaseUrl: string | undefined,
  value: (variable: string) => string | undefined,
): string[] {
  if (target === 'local' || onThisMachine(apiBaseUrl)) return [];
  return Object.entries(DEMO_SECRETS)
    .filter(([variable, demo]) => value(variable) === demo)
    .map(([variable]) => variable);
}

/** The host of an http(s) URL (brackets kept for IPv6), lower-cased, or undefined. */
export function urlHost(url: string): string | undefined {
  const host = plainUrl(url.trim())?.host;
  if (host === undefined) return undefined;
  const read = normalizeHost(host);
  return read.ok ? read.host : host;
}

/** 127.0.0.0/8, ::1 and localhost (RFC 6761 keeps *.localhost on the machine too). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '[0:0:0:0:0:0:0:1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether an address is on this machine (an unset one is). */
export function onThisMachine(url: string | undefined): boolean {
  if (url === undefined) return true;
  const host = urlHost(url);
  return host !== undefined && isLoopbackHost(host);
}
