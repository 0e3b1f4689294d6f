// Defence in depth: exchanges arrive redacted, but every string a report writes is scrubbed of the
// configured secret values once more, so a leak elsewhere in the pipeline stops here.
import { createRedactor, REDACTED } from '../client/index.ts';

export interface Scrubber {
  text(value: string): string;
  /** A deep copy with every string scrubbed (object keys included). */
  deep<T>(value: T): T;
}

/** The forms a secret takes in the texts a report writes or quotes. */
function forms(secret: string): string[] {
  const html = secret
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  // HTML and XML (junit.xml) differ only in how they write an apostrophe.
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    html,
    html.replace(/&#39;/g, '&apos;'),
  ];
}

export function createScrubber(secrets: readonly string[]): Scrubber {
  // Longest first, so a secret containing another is replaced whole.
  const known = [...new Set(secrets.filter((s) => s.length > 0).flatMap(forms))].sort(
    (a, b) => b.length - a.length,
  );
  // Whole values first: a field pattern (client_secret=...) stops at '&' or '"' and would
  // otherwise leave the tail of a secret that contains one.
  const fields = createRedactor([]);
  const text = (value: string) => {
    let out = value;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return fields.text(out);
  };
  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), deep(v)]));
    }
    return value;
  };
  return { text, deep: <T>(value: T) => deep(value) as T };
}
