// The one secret filter, for the suite (exchanges, reports, configuration messages) and the k6
// scripts (their summaries): every known secret value in every form a record or report can write
// it, credential headers by name, token and secret fields by name whatever their value.
// k6-safe: no Node or k6 imports.

export const REDACTED = '[REDACTED]';

/**
 * A value learned on the way (a token the target issued, a hand-made credential header) shorter
 * than this is no secret pattern: a token `json` would blank every `json` of the evidence. The
 * configured secrets are redacted whatever their length (the user chose them as secrets).
 */
export const MIN_LEARNED = 8;

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key-secret',
  'cookie',
  'set-cookie',
]);

// Field names whose value is a secret wherever they appear (a target may echo request headers).
const SECRET_FIELDS =
  'access_token|refresh_token|id_token|client_secret|api_key_secret|password|authorization|proxy-authorization|x-api-key-secret';
// A printed curl line names where a secret comes from and holds none: a variable or a command
// spliced in (ACCESS_TOKEN=$(curl ...), "client_secret":"'"$CLIENT_SECRET"'",
// client_secret='"$CLIENT_SECRET"). A field whose value starts so is not redacted by name.
const SHELL_REFERENCE = `(?!\\$\\(|\\$[A-Za-z_]|'"\\$[A-Za-z_])`;
// "access_token": "..." in JSON (escaped quotes inside the value included).
const JSON_FIELD = new RegExp(
  `("(?:${SECRET_FIELDS})"\\s*:\\s*)"${SHELL_REFERENCE}(?:[^"\\\\]|\\\\.)*"`,
  'gi',
);
// access_token=... in a query string or form body. An empty value hides nothing (and a recorded
// request keeps the secret after `access_token=` as its variable, which must stay next to it).
const FORM_FIELD = new RegExp(`((?:^|[?&;\\s"])(?:${SECRET_FIELDS})=)${SHELL_REFERENCE}[^&;\\s"]+`, 'gi');
// Each pattern needs a field name right before its `"` (JSON) or its `=` (form): a text that holds
// none of those (lowercased) has no field to redact, and the two patterns (slow per character on a
// long text) are not run over it. Lowercasing maps ASCII letters only to ASCII, and the patterns
// match ASCII letters only by ASCII ones (no `u` flag), so a match always shows here.
const FIELD_NAMES = SECRET_FIELDS.split('|');
const JSON_FIELD_NAMES = FIELD_NAMES.map((name) => `"${name}"`);
const FORM_FIELD_NAMES = FIELD_NAMES.map((name) => `${name}=`);
const holdsAny = (lower: string, names: readonly string[]) => names.some((name) => lower.includes(name));

export interface SecretFilter {
  text(value: string): string;
  /** Credential headers by name; every other value as text. */
  headers(headers: Record<string, string>): Record<string, string>;
  /** A deep copy with every string filtered (object keys included). */
  deep<T>(value: T): T;
  /** Adds secrets learned later (tokens the client obtained); shorter than MIN_LEARNED, ignored. */
  add(secret: string): void;
  /** Learns the values sent in credential headers (also hand-made ones), so echoes of them are caught. */
  learnFromHeaders(headers: Record<string, string>): void;
}

/** A lone surrogate cannot be URL-encoded (encodeURIComponent throws); the raw form still matches. */
function urlEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret;
  }
}

/** The forms a secret takes in a record or a report: as is, URL-encoded, JSON-, HTML- and XML-escaped. */
export function secretForms(secret: string): string[] {
  const html = secret
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  return [
    ...new Set([
      secret,
      urlEncoded(secret),
      JSON.stringify(secret).slice(1, -1),
      html,
      html.replace(/&#39;/g, '&apos;'),
    ]),
  ];
}

export function createSecretFilter(secrets: readonly string[]): SecretFilter {
  let known: string[] = [];
  const remember = (secret: string) => {
    if (!secret) return;
    // Longest first, so a secret containing another is replaced whole.
    known = [...new Set([...known, ...secretForms(secret)])].sort((a, b) => b.length - a.length);
  };
  for (const s of secrets) remember(s);
  const add = (secret: string) => {
    if (secret.trim().length >= MIN_LEARNED) remember(secret);
  };

  const text = (value: string): string => {
    // Whole values first: a field pattern (client_secret=...) stops at '&' or '"' and would
    // otherwise leave the tail of a secret that contains one.
    let out = value;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    const lower = out.toLowerCase();
    if (holdsAny(lower, JSON_FIELD_NAMES)) out = out.replace(JSON_FIELD, `$1"${REDACTED}"`);
    // After the JSON fields: their redaction leaves the form names where they were.
    if (holdsAny(lower, FORM_FIELD_NAMES)) out = out.replace(FORM_FIELD, `$1${REDACTED}`);
    return out;
  };

  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), deep(v)]));
    }
    return value;
  };

  return {
    add,
    text,
    deep: <T>(value: T) => deep(value) as T,
    learnFromHeaders(headers) {
      for (const [name, value] of Object.entries(headers)) {
        if (!SECRET_HEADERS.has(name.toLowerCase())) continue;
        const credential = value.replace(/^\s*(?:Bearer|Basic)\s+/i, '').trim();
        for (const v of [value.trim(), credential]) add(v);
      }
    },
    headers(headers) {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : text(value);
      }
      return out;
    },
  };
}
