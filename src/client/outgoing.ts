// The one description of a request on the wire: an ApiRequest (what a check asks for) becomes the
// outgoing request (method, URL, headers with accept and credentials, body text) here and nowhere
// else. Pure: the transport sends it, the recorder keeps it, the curl line is rendered from it.
import type { TargetConfig } from '../config/index.ts';
import { exactJsonText } from './exact-json.ts';
import type { ApiRequest } from './types.ts';

export interface OutgoingRequest {
  method: string;
  url: URL;
  /** Lower-case names, in the order they are sent. */
  headers: Record<string, string>;
  /** The body's text, sent as UTF-8 (a byte that is no UTF-8 written as in bodyBytes). */
  body?: string;
}

// A lone low surrogate of U+DC80-U+DCFF, not the second half of a pair.
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/**
 * A body's bytes: its text as UTF-8, each lone surrogate U+DC80-U+DCFF as the byte 80-FF it stands
 * for (PEP 383's surrogateescape), so a request whose bytes are no UTF-8 can be written as text,
 * recorded and replayed (curl.ts writes the byte). A JSON body never holds one: JSON.stringify
 * writes a lone surrogate as its \u escape.
 */
export function bodyBytes(text: string): string | Buffer {
  if (!ESCAPED_BYTE.test(text)) return text;
  const chunks: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lone = c >= 0xdc80 && c <= 0xdcff && !(i > 0 && /[\uD800-\uDBFF]/.test(text[i - 1] ?? ''));
    if (!lone) continue;
    chunks.push(Buffer.from(text.slice(from, i), 'utf8'), Buffer.of(c - 0xdc00));
    from = i + 1;
  }
  chunks.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(chunks);
}

/** The bytes of a body that is no UTF-8, written as text (bodyBytes reads it back). */
export function escapedBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b < 0x80 ? b : 0xdc00 + b);
  return out;
}

/** What the builder needs of a target: its two bases and the API key. */
export type OutgoingTarget = Pick<TargetConfig, 'apiBaseUrl' | 'petstoreBaseUrl'> & {
  credentials: Pick<TargetConfig['credentials'], 'apiKeyId' | 'apiKeySecret'>;
};

// `new URL('pets', '.../v1')` would replace the last segment: both bases must end with a slash.
const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

/** The Authorization value of a bearer token; renewal swaps it through here too. */
export const bearer = (token: string | undefined) => `Bearer ${token ?? ''}`;

/** The token a bearer Authorization value carries (undefined for any other value). */
export function bearerToken(value: string | undefined): string | undefined {
  const match = /^Bearer (.*)$/.exec(value ?? '');
  return match ? match[1] : undefined;
}

/**
 * The request as it goes out. `token` is the bearer token of `auth: 'bearer'` (the client gets it
 * from its token manager before building).
 */
export function buildOutgoing(req: ApiRequest, target: OutgoingTarget, token?: string): OutgoingRequest {
  const base = req.service === 'main' ? target.apiBaseUrl : target.petstoreBaseUrl;
  const url = new URL(req.path.replace(/^\/+/, ''), withSlash(base));
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (req.rawBody !== undefined) {
    body = req.rawBody;
    if (req.contentType) headers['content-type'] = req.contentType;
  } else if (req.body !== undefined) {
    // Exact: a pet id read back beyond 2^53 (a bigint) is sent as the integer it is.
    body = exactJsonText(req.body);
    headers['content-type'] = req.contentType ?? 'application/json';
  }
  if (req.auth === 'apiKey') {
    headers['x-api-key-id'] = target.credentials.apiKeyId;
    headers['x-api-key-secret'] = target.credentials.apiKeySecret;
  } else if (req.auth === 'bearer') {
    headers.authorization = bearer(token);
  } else if (typeof req.auth === 'object') {
    for (const [name, value] of Object.entries(req.auth.headers)) headers[name.toLowerCase()] = value;
  }
  for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
  return body === undefined
    ? { method: req.method, url, headers }
    : { method: req.method, url, headers, body };
}
