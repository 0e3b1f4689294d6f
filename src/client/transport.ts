// One HTTP exchange on undici: a timeout on the whole exchange, a cap on the response body, no
// redirects followed (a 3xx is returned and recorded as it came), and nothing sent to an origin
// other than the configured bases' (the one rule, common/origin.ts, k6 applies it too).
// Failures become TransportErrors.
import { isUtf8 } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { type Dispatcher, request } from 'undici';
import { allowedOrigin } from '../../common/origin.ts';
import { TransportError, toTransportError } from './errors.ts';
import { parseExactJson } from './exact-json.ts';
import { bodyBytes, type OutgoingRequest } from './outgoing.ts';
import type { ApiResponse } from './types.ts';

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

// Built by outgoing.ts, the one description of a request on the wire.
export type { OutgoingRequest } from './outgoing.ts';

export interface TransportOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  /** The configured bases' origins (allowedOrigins()): a request anywhere else is refused unsent. */
  allowedOrigins: readonly string[];
  dispatcher?: Dispatcher;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number, out: OutgoingRequest) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      const limit = max >= 1024 * 1024 ? `${max / (1024 * 1024)} MiB` : `${max} bytes`;
      throw new TransportError(
        'too-large',
        `response from ${out.method} ${out.url.origin}${out.url.pathname} is larger than ${limit}`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The offset of the first byte that does not belong to a UTF-8 sequence (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or undefined when every byte does. The text the
 * checks read has each such byte replaced by U+FFFD, so this is the only place it can be seen.
 */
export function firstNotUtf8(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence and the range its second byte must fall in.
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (length === 0) return i;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return undefined;
}

function parseJson(text: string): { body: unknown; isJson: boolean } {
  if (text.trim() === '') return { body: undefined, isJson: false };
  try {
    // Without loss: an int64 beyond 2^53 stays exact (a bigint), as ids must be to be asked for again.
    return { body: parseExactJson(text), isJson: true };
  } catch {
    return { body: undefined, isJson: false };
  }
}

export async function send(out: OutgoingRequest, options: TransportOptions): Promise<ApiResponse> {
  const origin = allowedOrigin(out.url.href, options.allowedOrigins);
  if (!origin.allowed) throw new TransportError('other', origin.reason);
  const controller = new AbortController();
  let timedOut = false;
  let done = false;
  // This bounds the whole exchange (connect included). When it fires, the answer may already be
  // waiting in the socket: a busy event loop (a loaded CI machine, a synchronous start-up step) runs
  // due timers before it reads sockets. One turn for pending I/O first (setImmediate runs after the
  // poll phase), so the target is not blamed for the client's own stall.
  const timer = setTimeout(() => {
    setImmediate(() => {
      if (done) return;
      timedOut = true;
      controller.abort();
    });
  }, options.timeoutMs);
  const started = performance.now();
  try {
    const res = await request(out.url, {
      method: out.method as Dispatcher.HttpMethod,
      headers: out.headers,
      body: out.body === undefined ? undefined : bodyBytes(out.body),
      dispatcher: options.dispatcher,
      // Only a backstop: undici's own timers would fire in the same late turn as ours.
      headersTimeout: 2 * options.timeoutMs,
      bodyTimeout: 2 * options.timeoutMs,
      signal: controller.signal,
    });
    // Read as bytes first: what the text hides (a byte that is not UTF-8, the count against
    // Content-Length) is kept beside it for the invariants (INV-JSON-BYTES).
    const bytes = await readCapped(res.body, options.maxBodyBytes, out);
    const text = bytes.toString('utf8');
    const notUtf8At = firstNotUtf8(bytes);
    return {
      status: res.statusCode,
      headers: flatten(res.headers),
      text,
      ...parseJson(text),
      bytes: bytes.length,
      ...(notUtf8At === undefined ? {} : { notUtf8At }),
      url: out.url.href,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    throw toTransportError(
      error,
      { method: out.method, url: out.url, timeoutMs: options.timeoutMs },
      timedOut,
    );
  } finally {
    done = true;
    clearTimeout(timer);
  }
}
