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
  /** Query values as sent (text), so a wrong type is expressible; a list is a repeated parameter. */
  query: Record<string, string | string[]>;
  body?: GeneratedBody;
  /**
   * Parts written as they go on the wire, percent-escapes kept: a path parameter or a query
   * parameter whose escapes are no UTF-8 (%FF, %C3%28), which no JavaScript string can hold.
   */
  escaped?: { path?: Record<string, string>; query?: string };
}

/** The query as sent: 'limit=1&limit=2' for a repeated parameter. */
export function queryText(query: GeneratedRequest['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
  }
  return params.toString();
}

/** The path with its parameters filled in, an escaped one as written. */
function pathOf(op: OperationInfo, req: GeneratedRequest): string {
  const escaped = req.escaped?.path ?? {};
  const mark = (name: string) => `escaped-path-parameter-${name}`;
  const filled = buildOperationUrlPath(op, {
    ...req.pathParams,
    ...Object.fromEntries(Object.keys(escaped).map((name) => [name, mark(name)])),
  });
  return Object.entries(escaped).reduce((path, [name, value]) => path.replace(mark(name), value), filled);
}

/** The query as sent, an escaped part after the others. */
function fullQuery(req: GeneratedRequest): string {
  return [queryText(req.query), req.escaped?.query ?? ''].filter((q) => q !== '').join('&');
}

export function toApiRequest(op: OperationInfo, req: GeneratedRequest): ApiRequest {
  const path = pathOf(op, req);
  // The client's query is one value a name: a repeated parameter, or one written with its escapes,
  // travels in the path's query.
  const inPath = Object.values(req.query).some(Array.isArray) || req.escaped?.query !== undefined;
  const base: ApiRequest = {
    service: op.service,
    method: op.method.toUpperCase() as ApiRequest['method'],
    path: inPath ? `${path}?${fullQuery(req)}` : path,
    auth: req.auth,
    // The client's usual courtesy (renew an expired session, wait out a 429) stays on: a 429 that
    // outlasts it is judged inconclusive, never a refusal.
    renew: true,
    // Its values are made up: the recorded request keeps them, so the curl line sends them back.
    generated: true,
    ...(Object.keys(req.query).length && !inPath
      ? { query: { ...(req.query as Record<string, string>) } }
      : {}),
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
  const path = `/${pathOf(op, req)}`;
  const query = fullQuery(req);
  const text = bodyText(req.body);
  const shown = text === undefined ? '' : ` ${text.length > 120 ? `${text.slice(0, 120)}...` : text}`;
  const type = req.body?.kind === 'raw' ? ` (content-type ${req.body.contentType ?? 'none'})` : '';
  return `${op.method.toUpperCase()} ${path}${query ? `?${query}` : ''}${shown}${type}`;
}
