// A generated request: what the generators make, what shrinks, and what is sent (through the
// suite's client) and shown (as curl) when it fails.
import type { ApiRequest } from '../client/index.ts';
import { buildOperationUrlPath, type OperationInfo } from '../contract/index.ts';

export type Auth = 'apiKey' | 'bearer' | 'none';

export type GeneratedBody =
  | { kind: 'json'; value: unknown }
  /** Text sent as it is: malformed JSON, a wrong content type, an empty body. */
  | { kind: 'raw'; text: string; contentType?: string };

export interface GeneratedRequest {
  operationId: string;
  auth: Auth;
  pathParams: Record<string, string>;
  /** Query values as sent (text), so a wrong type is expressible. */
  query: Record<string, string>;
  body?: GeneratedBody;
}

export function toApiRequest(op: OperationInfo, req: GeneratedRequest): ApiRequest {
  const base: ApiRequest = {
    service: op.service,
    method: op.method.toUpperCase() as ApiRequest['method'],
    path: buildOperationUrlPath(op, req.pathParams),
    auth: req.auth,
    // The client's usual courtesy (renew an expired session, wait out a 429) stays on: a 429 that
    // outlasts it is judged inconclusive, never a refusal.
    renew: true,
    ...(Object.keys(req.query).length ? { query: { ...req.query } } : {}),
  };
  if (!req.body) return base;
  if (req.body.kind === 'json') return { ...base, body: req.body.value };
  return {
    ...base,
    rawBody: req.body.text,
    ...(req.body.contentType === undefined ? {} : { contentType: req.body.contentType }),
  };
}

/** The body's text as sent. */
export function bodyText(body: GeneratedBody | undefined): string | undefined {
  if (!body) return undefined;
  return body.kind === 'json' ? JSON.stringify(body.value) : body.text;
}

/** One line naming the request: 'GET /pets?limit=-1', 'POST /pets {"id":...}'. */
export function describeRequest(op: OperationInfo, req: GeneratedRequest): string {
  const path = `/${buildOperationUrlPath(op, req.pathParams)}`;
  const query = new URLSearchParams(req.query).toString();
  const text = bodyText(req.body);
  const shown = text === undefined ? '' : ` ${text.length > 120 ? `${text.slice(0, 120)}...` : text}`;
  const type = req.body?.kind === 'raw' ? ` (content-type ${req.body.contentType ?? 'none'})` : '';
  return `${op.method.toUpperCase()} ${path}${query ? `?${query}` : ''}${shown}${type}`;
}
