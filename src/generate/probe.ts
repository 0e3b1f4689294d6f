// One generated request, sent and judged; a create that was accepted is read back.
import { firstLine, TransportError, type TransportErrorKind } from '../client/errors.ts';
import type { ApiClient, ApiRequest, ApiResponse, RecordedExchange } from '../client/index.ts';
import { isObject } from '../contract/documents.ts';
import { findOperation } from '../contract/index.ts';
import { withFreshIds } from './fresh-ids.ts';
import type { Mutation } from './mutations.ts';
import type { ProbeResult } from './property.ts';
import { type GeneratedRequest, toApiRequest } from './request.ts';
import type { Expectation, OperationPlan } from './semantics.ts';
import { judgeInvalid, judgeReadBack, judgeValid, type Verdict } from './verdict.ts';

export interface SentRequest {
  /** The exchanges this probe recorded (its read-back too): the evidence of a failure. */
  exchanges?: RecordedExchange[];
  /** As sent, with fresh ids. */
  api: ApiRequest;
  generated: GeneratedRequest;
  /** The last answer (the read-back's, when there was one). */
  status?: number;
}

export type ProbeMode = { kind: 'valid' } | { kind: 'invalid'; mutation: Mutation; expectation: Expectation };

/** A request that got no answer for one of these reasons was dropped or stalled by the server. */
const SERVER_SIDE: ReadonlySet<TransportErrorKind> = new Set(['reset', 'timeout', 'refused']);

async function send(client: ApiClient, api: ApiRequest): Promise<ApiResponse | Verdict> {
  try {
    return await client.request(api);
  } catch (error) {
    // No answer at all to a client's input is a server failure too (a crash drops the connection, a
    // hang runs out the timeout). Anything else thrown (no token, our own defect) is not this
    // request's answer: it goes up to check(), which names whose error it is, and is never shrunk.
    if (!(error instanceof TransportError) || !SERVER_SIDE.has(error.kind)) throw error;
    return { kind: 'violation', rule: 'GNR-01', message: `got no answer: ${firstLine(error)}` };
  }
}

/** The JSON body's fields the schema lists: what a write must keep (others may be dropped). */
function listedFields(plan: OperationPlan, req: GeneratedRequest): Record<string, unknown> | undefined {
  if (req.body?.kind !== 'json' || !isObject(req.body.value)) return undefined;
  const properties = plan.schemas.body?.schema.properties;
  const listed = isObject(properties) ? Object.keys(properties) : Object.keys(req.body.value);
  return Object.fromEntries(Object.entries(req.body.value).filter(([k]) => listed.includes(k)));
}

export function probeOf(
  plan: OperationPlan,
  client: ApiClient,
  nextId: () => number,
  mode: ProbeMode,
): (value: GeneratedRequest) => Promise<ProbeResult<SentRequest>> {
  return async (value) => {
    const generated = withFreshIds(mode.kind === 'invalid' ? mode.mutation.apply(value) : value, nextId);
    const api = toApiRequest(plan.op, generated);
    const res = await send(client, api);
    const sent: SentRequest = { api, generated };
    if (!('status' in res)) return { verdict: res, request: sent };
    sent.status = res.status;
    if (mode.kind === 'valid' && plan.readBack && res.status === 409) {
      // The fresh id exists already: a replay against a target that kept the first run's pets.
      return {
        verdict: { kind: 'inconclusive', reason: 'the fresh id exists already (409)' },
        request: sent,
      };
    }
    let verdict =
      mode.kind === 'invalid'
        ? judgeInvalid(plan.op, mode.expectation, res)
        : judgeValid(plan.op, plan.expect(generated), res, plan.equalTo?.(generated));
    const created = listedFields(plan, generated);
    // A valid create, or an edge the schema allows (a non-ASCII name), once accepted, reads back.
    const readsBack = mode.kind === 'valid' || mode.mutation.readBack === true;
    if (verdict.kind === 'pass' && readsBack && plan.readBack && res.status < 300 && created) {
      const show = findOperation('showPetById');
      const back = await send(
        client,
        toApiRequest(show, {
          operationId: show.operationId,
          auth: 'none',
          pathParams: { petId: String(created.id) },
          query: {},
        }),
      );
      verdict = 'status' in back ? judgeReadBack(created, back) : back;
      if ('status' in back) sent.status = back.status;
    }
    return { verdict, request: sent };
  };
}
