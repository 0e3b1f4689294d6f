// Reading a JSON request body: capped size, a JSON content type, valid JSON, else a 4xx error.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from './api-error.ts';
import { parseExactIntegers } from './int64-json.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The client went away while sending: there is nobody to answer. */
export class ClientGone extends Error {}

function tooLarge(): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${BODY_LIMIT_BYTES} bytes`, {
    // The rest of an oversized body is not read: the connection is not reused.
    headers: { connection: 'close' },
  });
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    // Drain what is sent so the 413 reaches a client that is still sending.
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Keep draining so the 413 reaches a client that is still sending.
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanup();
      reject(new ClientGone('the client closed the connection while sending its body'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('aborted', onGone);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('aborted', onGone);
  });
}

export function isJsonContentType(value: string | undefined): boolean {
  const media = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

const unsupported = (type: string | undefined) =>
  new ApiError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    type
      ? 'the request body must be JSON (content-type application/json)'
      : 'content-type application/json is required',
  );

/**
 * The parsed JSON body: 415 for another content type (unless `anyMediaType`: the other choice the
 * spec leaves open, any body read as JSON), 413 over the cap, 400 for bad JSON.
 * An optional body may be absent (nothing sent): then undefined.
 */
export async function readJsonBody(
  req: IncomingMessage,
  options: {
    optional?: boolean;
    limit?: number;
    crashOnMalformed?: boolean;
    anyMediaType?: boolean;
    /** Integers beyond 2^53 read exactly, as bigints (pet-ids=int64). */
    exactIntegers?: boolean;
    /** Fault body-not-utf8-500: a strict decoder's failure escapes as a crash. */
    crashOnNotUtf8?: boolean;
  } = {},
): Promise<unknown> {
  const limit = options.limit ?? BODY_LIMIT_BYTES;
  const type = req.headers['content-type'];
  if (!isJsonContentType(type) && !options.anyMediaType) {
    // Read (up to the cap) so a keep-alive connection stays usable.
    const raw = await readRaw(req, limit).catch(() => undefined);
    if (options.optional && type === undefined && raw?.length === 0) return undefined;
    throw unsupported(type);
  }
  const raw = await readRaw(req, limit);
  if (raw.length === 0) {
    if (options.optional) return undefined;
    throw badRequest('the request body is empty: a JSON object is expected');
  }
  if (options.crashOnNotUtf8 && !isUtf8(raw)) {
    throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
  }
  try {
    const text = raw.toString('utf8');
    return options.exactIntegers ? parseExactIntegers(text) : JSON.parse(text);
  } catch {
    // The fault malformed-json-500: the parser's failure escapes as a crash.
    if (options.crashOnMalformed) {
      throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
    }
    throw badRequest('the request body is not valid JSON');
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a body's fields hold a string with a lone surrogate (fault lone-surrogate-500). */
export function holdsLoneSurrogate(body: unknown): boolean {
  return (
    isObject(body) && Object.values(body).some((v) => typeof v === 'string' && /[\uD800-\uDFFF]/u.test(v))
  );
}
