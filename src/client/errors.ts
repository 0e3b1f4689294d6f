// Errors that say in one line what happened, naming the host, never a secret.

export type TransportErrorKind = 'dns' | 'refused' | 'timeout' | 'reset' | 'tls' | 'too-large' | 'other';

export class TransportError extends Error {
  override name = 'TransportError';
  readonly kind: TransportErrorKind;
  constructor(kind: TransportErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** The first line of an error's message (or of a text): what a one-line report or log shows. */
export function firstLine(error: unknown): string {
  const text =
    typeof error === 'string'
      ? error
      : error instanceof Error || typeof (error as { message?: unknown })?.message === 'string'
        ? String((error as { message: string }).message)
        : String(error);
  return text.split('\n')[0] ?? text;
}

/** The token route did not hand out a token. */
export class TokenError extends Error {
  override name = 'TokenError';
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** origin + path: the query may carry values that do not belong in a message. */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

// A target that answers, however badly (a body over the cap, say), is there to be checked.
const UNREACHABLE_KINDS: ReadonlySet<TransportErrorKind> = new Set([
  'dns',
  'refused',
  'timeout',
  'reset',
  'tls',
]);

/** The one verdict on reachability: why the target cannot be reached, or undefined if it answered. */
export function unreachableReason(error: unknown): string | undefined {
  return error instanceof TransportError && UNREACHABLE_KINDS.has(error.kind) ? error.message : undefined;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Every error code in the chain (undici wraps socket errors; happy eyeballs aggregates them). */
function codes(error: unknown, seen = new Set<unknown>()): string[] {
  if (typeof error !== 'object' || error === null || seen.has(error)) return [];
  seen.add(error);
  const e = error as ErrorLike;
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => codes(x, seen)) : [];
  return [...own, ...codes(e.cause, seen), ...nested];
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL|HOSTNAME_MISMATCH)/;

export interface FailedRequest {
  method: string;
  url: URL;
  timeoutMs: number;
}

/** Maps whatever undici threw to a TransportError with a one-line message. */
export function toTransportError(error: unknown, req: FailedRequest, timedOut: boolean): TransportError {
  if (error instanceof TransportError) return error;
  const { url } = req;
  const host = url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const target = `${req.method} ${url.origin}${url.pathname}`;
  const all = codes(error);
  const has = (...wanted: string[]) => all.some((c) => wanted.includes(c));

  if (
    timedOut ||
    has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT')
  ) {
    return new TransportError('timeout', `timed out: no response within ${req.timeoutMs} ms from ${target}`);
  }
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA')) {
    return new TransportError('dns', `cannot resolve host ${host} (DNS failure)`);
  }
  if (has('ECONNREFUSED')) return new TransportError('refused', `connection refused by ${host}:${port}`);
  if (all.some((c) => TLS_CODE.test(c))) {
    const code = all.find((c) => TLS_CODE.test(c));
    return new TransportError('tls', `TLS handshake with ${host}:${port} failed (${code})`);
  }
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED')) {
    return new TransportError('reset', `connection to ${host}:${port} reset during ${target}`);
  }
  const first = all[0] ?? (error instanceof Error ? error.name : 'unknown error');
  return new TransportError('other', `request ${target} failed (${first})`);
}
