// The origin rule, once for both halves: no request goes to an origin other than the configured
// base addresses' (API_BASE_URL and PETSTORE_BASE_URL), wherever its URL came from (a Location, an
// id from the target, a generated path). The conformance client (src/client/transport.ts) and the
// k6 scripts (load/lib/k6/http.ts) both ask allowedOrigin() before every request, and read a 3xx
// through redirectOrigin(). k6-safe: k6 has no URL parser, so origins are read by one strict
// grammar here, and anything it cannot read is refused (fail closed), never guessed.

/**
 * `scheme://host[:port]` and nothing else before the path: a host of letters, digits, dots and
 * dashes or a bracketed IPv6 literal, then the end, `/`, `?` or `#`. User info (`a@b`), a
 * backslash (which WHATWG parsers read as `/` and Go does not), spaces or percent-escapes in the
 * authority do not match, so two parsers can never disagree about where such a URL goes.
 */
const AUTHORITY = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?(?=[/?#]|$)/i;

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };

/** An http(s) URL read by the one grammar: scheme and host in lower case, the port always given. */
export interface PlainUrl {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Whether the port was written (and was not the scheme's default). */
  explicitPort: boolean;
  /** Everything after the authority: path, query, fragment, as written. */
  rest: string;
}

/** The URL read by the grammar above, or undefined when it is not one (fail closed). */
export function plainUrl(url: string): PlainUrl | undefined {
  const match = AUTHORITY.exec(url);
  if (!match) return undefined;
  const scheme = (match[1] as string).toLowerCase() as 'http' | 'https';
  const host = (match[2] as string).toLowerCase();
  const port = match[3] === undefined ? DEFAULT_PORTS[scheme] : Number(match[3]);
  if (port === undefined || port < 1 || port > 65_535) return undefined;
  return {
    scheme,
    host,
    port,
    explicitPort: port !== DEFAULT_PORTS[scheme],
    rest: url.slice(match[0].length),
  };
}

/**
 * The origin of an absolute http(s) URL as `scheme://host:port` (lower case, the port always
 * written), or undefined when the URL is not one the rule can read.
 */
export function originOf(url: string): string | undefined {
  const plain = plainUrl(url);
  return plain && `${plain.scheme}://${plain.host}:${plain.port}`;
}

/** The configured base addresses: the only places requests may go. */
export interface ConfiguredBases {
  apiBaseUrl: string;
  petstoreBaseUrl?: string | undefined;
}

/** The origins of the configured base addresses (each once). */
export function allowedOrigins(bases: ConfiguredBases): string[] {
  const origins = [bases.apiBaseUrl, bases.petstoreBaseUrl]
    .filter((u): u is string => typeof u === 'string' && u !== '')
    .map(originOf)
    .filter((o): o is string => o !== undefined);
  return [...new Set(origins)];
}

export type OriginVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether a request may go to this URL. The reason names the URL's origin only (never its path or
 * query, which may carry what the target put there), in one line.
 */
export function allowedOrigin(url: string, allowed: readonly string[]): OriginVerdict {
  const origin = originOf(url);
  if (origin !== undefined && allowed.includes(origin)) return { allowed: true };
  return {
    allowed: false,
    reason: `refused to send a request to ${origin ?? 'an address that is not a plain http(s) URL'}: only the origins of API_BASE_URL and PETSTORE_BASE_URL are reached`,
  };
}

/**
 * What to say about a redirect (a 3xx with a Location): the Location's origin only (resolved
 * against the request's origin when relative), or undefined when the answer is not a redirect.
 * Redirects are never followed: this is what the finding names.
 */
export function redirectOrigin(
  status: number,
  location: string | undefined,
  requestUrl: string,
): string | undefined {
  if (status < 300 || status > 399) return undefined;
  if (location === undefined || location.trim() === '') return `no Location (${status})`;
  const value = location.trim();
  // A path (`/x`, `x`, `?q`) stays on the request's origin; `//host` and `\\host` do not.
  const relative = !/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[/\\]{2}/.test(value);
  const origin = relative ? originOf(requestUrl) : originOf(value);
  return origin ?? 'an address that is not a plain http(s) URL';
}

/**
 * A value from the target (an id) as one path segment: percent-encoded so that `/`, `?`, `#`,
 * quotes, `$()` and newlines stay inside the segment and cannot move the request elsewhere or
 * break a printed command. `.` and `..` (even encoded, URL parsers read them as moves) and the
 * empty value cannot be a segment: refused with one line.
 */
export function pathSegment(value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new Error(`${JSON.stringify(text)} cannot be sent as a path segment (it would name another path)`);
  }
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
