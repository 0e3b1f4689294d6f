// What a route handler gets for one request.
import type { IncomingMessage } from 'node:http';
import { badRequest, simulatedCrash } from './api-error.ts';
import type { Reply } from './reply.ts';
import type { ServerState } from './state.ts';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly method: string;
  /** The path as requested, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly params: Readonly<Record<string, string>>;
  /** The caller's address (IPv4-mapped IPv6 addresses in their IPv4 form). */
  readonly address: string;
  readonly state: ServerState;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** The single value of a query parameter; a repeated parameter is a client error. */
export function singleParam(ctx: RequestContext, name: string): string | undefined {
  const values = ctx.query.getAll(name);
  if (values.length > 1) {
    if (ctx.state.faults.has('repeated-query-500')) throw simulatedCrash();
    throw badRequest(`${name} must be given at most once`);
  }
  return values[0];
}

/** A user-supplied value quoted in a message: bounded, so a huge parameter cannot bloat an answer. */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
}
