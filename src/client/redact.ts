// Redaction of everything an exchange record carries: credential headers by name, token and
// secret fields by name (whatever their value), and every known secret value wherever it appears.

export const REDACTED = '[REDACTED]';
const MIN_LEARNED = 6;

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
// "access_token": "..." in JSON (escaped quotes inside the value included).
const JSON_FIELD = new RegExp(`("(?:${SECRET_FIELDS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
// access_token=... in a query string or form body.
const FORM_FIELD = new RegExp(`((?:^|[?&;\\s"])(?:${SECRET_FIELDS})=)[^&;\\s"]*`, 'gi');

export interface Redactor {
  text(value: string): string;
  headers(headers: Record<string, string>): Record<string, string>;
  /** Adds secrets learned later (tokens the client obtained). */
  add(secret: string): void;
  /** Learns the values sent in credential headers (also hand-made ones), so echoes of them are caught. */
  learnFromHeaders(headers: Record<string, string>): void;
}

/** The forms a secret can take in a record: as is, URL-encoded, JSON-escaped. */
function variants(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  return [...forms];
}

export function createRedactor(secrets: readonly string[]): Redactor {
  let known: string[] = [];
  const add = (secret: string) => {
    if (!secret) return;
    // Longest first, so a secret containing another is replaced whole.
    known = [...new Set([...known, ...variants(secret)])].sort((a, b) => b.length - a.length);
  };
  for (const s of secrets) add(s);

  const text = (value: string): string => {
    let out = value.replace(JSON_FIELD, `$1"${REDACTED}"`).replace(FORM_FIELD, `$1${REDACTED}`);
    for (const secret of known) out = out.split(secret).join(REDACTED);
    return out;
  };

  return {
    add,
    text,
    learnFromHeaders(headers) {
      for (const [name, value] of Object.entries(headers)) {
        if (!SECRET_HEADERS.has(name.toLowerCase())) continue;
        const credential = value.replace(/^\s*(?:Bearer|Basic)\s+/i, '').trim();
        // Very short made-up values would blank out ordinary text; they protect nothing real.
        for (const v of [value.trim(), credential]) if (v.length >= MIN_LEARNED) add(v);
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
