// The main service's error body (spec: Error body). message is always present; id is left out
// when the options say so ("may be absent in some errors").
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson } from './http-io.ts';
import type { IndependentOptions } from './options.ts';

export interface ErrorSpec {
  status: number;
  code: string;
  message: string;
  errors?: string[];
  headers?: Record<string, string>;
}

export function isoNow(style: IndependentOptions['timestampStyle']): string {
  const now = Date.now();
  if (style === 'plus-one') return `${new Date(now + 3_600_000).toISOString().slice(0, 23)}+01:00`;
  const iso = new Date(now).toISOString();
  return style === 'offset' ? `${iso.slice(0, 19)}+00:00` : iso;
}

export function sendError(
  res: ServerResponse,
  options: IndependentOptions,
  route: { route: string; requestPath: string },
  error: ErrorSpec,
): void {
  // An error that gives its errors list (the 422's empty one included) always sends it.
  const errors = error.errors ?? [];
  const body: Record<string, unknown> = {};
  if (options.errorIds) body.id = randomUUID();
  body.code = error.code;
  body.message = error.message;
  body.status_code = options.breakRule === 'status-code-mismatch' ? error.status + 1 : error.status;
  body.timestamp = isoNow(options.timestampStyle);
  body.path = options.errorPath === 'route' ? route.route : route.requestPath;
  body.handled = true;
  if (options.errorsField === 'always' || error.errors !== undefined) body.errors = errors;
  sendJson(res, error.status, body, error.headers ?? {}, options.errorMediaType);
}
