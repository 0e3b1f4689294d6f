// What wraps the one `send` of an outgoing request, in the shape of undici's interceptors: each
// takes the next send and returns a send. The client composes renewal (outermost), 429 retries and
// recording around the transport, so every attempt is recorded and a renewal repeats the request
// through the same retries.
import { performance } from 'node:perf_hooks';
import { bearer, bearerToken, type OutgoingRequest } from './outgoing.ts';
import { with429Retries } from './retry.ts';
import { isSessionExpired } from './session.ts';
import type { ApiResponse, ExchangeRecorder, RetryPolicy } from './types.ts';

/** Per-request switches (the ApiRequest's), handed down the chain with the request. */
export interface SendOptions {
  /** Wait out a 429 and send again (bounded by the policy). */
  retryOn429: boolean;
  /** Bearer: after SESSION_EXPIRED, renew the token and send once more. */
  renew: boolean;
  /** The request's values were made up by the generator (what the recorder may keep). */
  generated?: boolean;
  /** The request's values were made up by the check (ApiRequest.madeUp). */
  madeUp?: boolean;
}

export type Send = (out: OutgoingRequest, options: SendOptions) => Promise<ApiResponse>;
export type Interceptor = (next: Send) => Send;

/** `compose(send, a, b)` is a(b(send)): the first interceptor sees the request first. */
export function compose(send: Send, ...interceptors: Interceptor[]): Send {
  return interceptors.reduceRight<Send>((next, wrap) => wrap(next), send);
}

/** Records every exchange as sent and received (the recorder redacts), failures included. */
export function recording(recorder: ExchangeRecorder): Interceptor {
  return (next) => async (out, options) => {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    recorder.learnFromHeaders(out.headers);
    const sent = {
      method: out.method,
      url: out.url.href,
      requestHeaders: { ...out.headers },
      ...(out.body === undefined ? {} : { requestBody: out.body }),
      startedAt,
    };
    try {
      const res = await next(out, options);
      recorder.record(
        {
          ...sent,
          status: res.status,
          responseHeaders: res.headers,
          responseBody: res.text,
          ...(res.bytes === undefined ? {} : { responseBytes: res.bytes }),
          ...(res.notUtf8At === undefined ? {} : { responseNotUtf8At: res.notUtf8At }),
          durationMs: res.durationMs,
        },
        { generated: options.generated === true, madeUp: options.madeUp === true },
      );
      return res;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      recorder.record(
        { ...sent, durationMs: performance.now() - started, error: message },
        { generated: options.generated === true, madeUp: options.madeUp === true },
      );
      throw error;
    }
  };
}

/** After a 429, waits as told and sends the same request again, within the policy's bounds. */
export function retrying429(policy: RetryPolicy): Interceptor {
  return (next) => (out, options) => with429Retries(() => next(out, options), policy, options.retryOn429);
}

/**
 * The spec's renewal: after SESSION_EXPIRED the client obtains a new token (single-flight, in the
 * token manager) and repeats the request once with it; a second SESSION_EXPIRED is final.
 */
export function renewing(renew: (staleToken: string | undefined) => Promise<string>): Interceptor {
  return (next) => async (out, options) => {
    const first = await next(out, options);
    if (!options.renew || !isSessionExpired(first)) return first;
    const fresh = await renew(bearerToken(out.headers.authorization));
    return next({ ...out, headers: { ...out.headers, authorization: bearer(fresh) } }, options);
  };
}
