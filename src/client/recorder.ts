// Keeps the exchanges of one check for its report, redacted and with bodies cut to 64 KiB. The
// recorder's filter is the only pass over an exchange: the client hands it what it sent and got,
// and teaches it the tokens it obtains.
import { createSecretFilter } from '../../load/lib/shared/secret-filter.ts';
import type { ExchangeRecorder, RecordedExchange } from './types.ts';

export const MAX_RECORDED_BODY = 64 * 1024;

/** Redact first, then cut: a cut could otherwise leave the start of a secret behind. */
function cut(body: string): string {
  if (body.length <= MAX_RECORDED_BODY) return body;
  return `${body.slice(0, MAX_RECORDED_BODY)}... [truncated, ${body.length} characters in all]`;
}

export function createRecorder(secrets: string[]): ExchangeRecorder {
  const redact = createSecretFilter(secrets);
  let kept: RecordedExchange[] = [];
  return {
    record(e) {
      const clean: RecordedExchange = {
        method: e.method,
        url: redact.text(e.url),
        requestHeaders: redact.headers(e.requestHeaders),
        startedAt: e.startedAt,
        durationMs: e.durationMs,
      };
      if (e.requestBody !== undefined) clean.requestBody = cut(redact.text(e.requestBody));
      if (e.status !== undefined) clean.status = e.status;
      if (e.responseHeaders !== undefined) clean.responseHeaders = redact.headers(e.responseHeaders);
      if (e.responseBody !== undefined) clean.responseBody = cut(redact.text(e.responseBody));
      if (e.error !== undefined) clean.error = redact.text(e.error);
      kept.push(clean);
    },
    learn: redact.add,
    learnFromHeaders: redact.learnFromHeaders,
    exchanges: () => [...kept],
    clear() {
      kept = [];
    },
  };
}
