// What a handler answers, and how an answer (or an error) becomes bytes on the wire.
import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-error.ts';
import { stringifyExactIntegers } from './int64-json.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Serialised as JSON; absent for an answer without a body. */
  json?: unknown;
  /** The content type of the JSON text when it is not application/json (faults). */
  contentType?: string;
  /** A body that is not JSON (or JSON under another content type, or as other bytes, for faults). */
  text?: { contentType: string; body: string | Buffer };
}

export interface ErrorContext {
  requestId: string;
  path: string;
  now: number;
  /** The errors-field choice: `several-only` writes `errors` only when there are messages to list. */
  errorsField?: 'always' | 'several-only';
}

/** The spec's error body for an error (the error-body faults reshape it later, as data). */
export function errorReply(error: ApiError, ctx: ErrorContext): Reply {
  const headers = { ...error.options.headers };
  if (error.options.bodyless) return { status: error.status, headers };
  const body: Record<string, unknown> = {
    id: ctx.requestId,
    code: error.code,
    message: error.message,
    status_code: error.status,
    timestamp: new Date(ctx.now).toISOString(),
    path: ctx.path,
    handled: error.options.handled ?? true,
    errors: error.options.errors ?? [],
  };
  // "errors: filled when the error has several messages": absent otherwise, where the error does
  // not name it (the 422 beyond the last page does: "errors is an empty array").
  if (ctx.errorsField === 'several-only' && error.options.errors === undefined) delete body.errors;
  return { status: error.status, headers, json: body };
}

/** Writes a reply; a response whose client has gone is dropped silently. */
export function writeReply(res: ServerResponse, reply: Reply, baseHeaders: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  let body: string | Buffer | undefined;
  let contentType: string | undefined;
  if (reply.text) {
    body = reply.text.body;
    contentType = reply.text.contentType;
  } else if (reply.json !== undefined) {
    body = stringifyExactIntegers(reply.json);
    contentType = reply.contentType ?? JSON_TYPE;
  }
  const headers: Record<string, string | number> = { ...baseHeaders, ...reply.headers };
  if (contentType) headers['content-type'] = contentType;
  headers['content-length'] = body === undefined ? 0 : Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(body);
}
