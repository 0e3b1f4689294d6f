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

/**
 * The single value of a query parameter; a repeated parameter is a client error, or (the other
 * choices the spec leaves open, src/reference/options.ts) its first or last value is read.
 */
export function singleParam(ctx: RequestContext, name: string): string | undefined {
  const values = ctx.query.getAll(name);
  if (values.length > 1) {
    if (ctx.state.faults.has('repeated-query-500')) throw simulatedCrash();
    const choice = ctx.state.options.choices['repeated-query'];
    if (choice === 'first') return values[0];
    if (choice === 'last') return values.at(-1);
    throw badRequest(
      ctx.state.faults.has('repeated-query-message-empty') ? '' : `${name} must be given at most once`,
    );
  }
  return values[0];
}

/** An integer written otherwise than in digits (1e2, 1.0, -0), as digits when the server reads it. */
export function readNotation(ctx: RequestContext, raw: string): string {
  if (ctx.state.options.choices['number-notation'] !== 'read' || /^-?\d+$/.test(raw) || raw.trim() === '')
    return raw;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? String(Math.abs(value) === 0 ? 0 : value) : raw;
}

/** A user-supplied value quoted in a message: bounded, so a huge parameter cannot bloat an answer. */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
}
