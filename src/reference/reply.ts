// What a handler answers, and how an answer (or an error) becomes bytes on the wire.
import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-error.ts';
import type { ActiveFaults } from './faults.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Serialised as JSON; absent for an answer without a body. */
  json?: unknown;
  /** A body that is not JSON (or JSON under another content type, for faults). */
  text?: { contentType: string; body: string };
}

export interface ErrorContext {
  requestId: string;
  path: string;
  now: number;
  faults: ActiveFaults;
}

const pad = (n: number) => String(n).padStart(2, '0');

// The non-ISO form a fault writes: day first, no seconds, no zone.
function localStyle(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The spec's error body for an error, with the error-body faults applied. */
export function errorReply(error: ApiError, ctx: ErrorContext): Reply {
  const { faults } = ctx;
  const headers = { ...error.options.headers };
  if (error.options.bodyless) return { status: error.status, headers };
  const body: Record<string, unknown> = {
    id: ctx.requestId,
    code: error.code,
    message: error.message,
    status_code: faults.has('status-code-mismatch') ? 400 : error.status,
    timestamp: faults.has('timestamp-not-iso') ? localStyle(ctx.now) : new Date(ctx.now).toISOString(),
    path: faults.has('error-path-wrong') ? '/' : ctx.path,
    handled: error.options.handled ?? true,
    errors: error.options.errors ?? [],
  };
  if (faults.has('error-missing-message')) delete body.message;
  if (faults.has('error-missing-handled')) delete body.handled;
  if (faults.has('errors-field-missing')) delete body.errors;
  if (faults.has('error-text-plain')) {
    return {
      status: error.status,
      headers,
      text: { contentType: 'text/plain; charset=utf-8', body: JSON.stringify(body) },
    };
  }
  return { status: error.status, headers, json: body };
}

/** Writes a reply; a response whose client has gone is dropped silently. */
export function writeReply(res: ServerResponse, reply: Reply, baseHeaders: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  let body: string | undefined;
  let contentType: string | undefined;
  if (reply.text) {
    body = reply.text.body;
    contentType = reply.text.contentType;
  } else if (reply.json !== undefined) {
    body = JSON.stringify(reply.json);
    contentType = JSON_TYPE;
  }
  const headers: Record<string, string | number> = { ...baseHeaders, ...reply.headers };
  if (contentType) headers['content-type'] = contentType;
  headers['content-length'] = body === undefined ? 0 : Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(body);
}
