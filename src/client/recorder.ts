// Keeps the exchanges of one check for its report, redacted and with bodies cut to 64 KiB. The
// recorder's filter is the only pass over an exchange: the client hands it what it sent and got,
// and teaches it the tokens it obtains. Beside the redacted text it keeps the request as sent with
// each named secret as its variable (replay.ts): what a curl line is rendered from.
import { createSecretFilter, MIN_LEARNED, REDACTED } from '../../common/secret-filter.ts';
import { asksForToken, leaksOf } from './leaks.ts';
import { learnedSecrets, shareLearned } from './learned-secrets.ts';
import { ACCESS_TOKEN, type NamedSecret, replayOf, UNNAMED_SECRET } from './replay.ts';
import type { ExchangeRecorder, RecordedExchange } from './types.ts';

export const MAX_RECORDED_BODY = 64 * 1024;

const CUT_MARK = /\.\.\. \[truncated, (\d+) characters in all\]$/;

/** Whether a recorded body was cut here (its text is then no whole answer): the mark `cut` leaves. */
export function wasCut(body: string): boolean {
  // The pattern only where its end could match: readers ask it of every body, some many times.
  return body.endsWith(' characters in all]') && CUT_MARK.test(body);
}

/**
 * The body cut to `max` characters with the mark `wasCut` knows; a body cut before keeps the total
 * its first cut gave. Redact first, then cut: a cut could otherwise leave the start of a secret behind.
 */
export function cutBody(body: string, max = MAX_RECORDED_BODY): string {
  if (body.length <= max) return body;
  const total = wasCut(body) ? CUT_MARK.exec(body)?.[1] : undefined;
  return `${body.slice(0, max)}... [truncated, ${total ?? body.length} characters in all]`;
}

/** The access_token of a 2xx answer to the token route, if it is one. */
function issuedToken(e: RecordedExchange): string | undefined {
  if (!asksForToken(e.method, e.url) || e.status === undefined || e.status < 200 || e.status > 299) return;
  try {
    const token = (JSON.parse(e.responseBody ?? '') as { access_token?: unknown } | null)?.access_token;
    return typeof token === 'string' && token.length >= MIN_LEARNED ? token : undefined;
  } catch {
    return undefined;
  }
}

export function createRecorder(secrets: string[]): ExchangeRecorder {
  const own = createSecretFilter(secrets);
  // The tokens other clients of the run learned too (learned-secrets.ts): a target may echo them here.
  const shared = learnedSecrets();
  const redact = {
    // Its own first: a credential it learned whole ("Bearer abc...") is then replaced whole.
    text: (value: string) => shared.text(own.text(value)),
    headers: (headers: Record<string, string>) => shared.headers(own.headers(headers)),
    deep: <T>(value: T): T => shared.deep(own.deep(value)),
  };
  // Each secret under the variable a command writes instead of it; a name given later replaces
  // the placeholder of a secret given unnamed.
  const named = new Map<string, string>();
  const learn = (secret: string, variable?: string) => {
    if (!secret) return;
    own.add(secret);
    const current = named.get(secret);
    if (current === undefined || (current === UNNAMED_SECRET && variable !== undefined)) {
      named.set(secret, variable ?? UNNAMED_SECRET);
    }
  };
  for (const s of secrets) learn(s);
  // Learned from here on (a token the client obtained): shared with the run's other recorders.
  const learnLater = (secret: string, variable?: string) => {
    learn(secret, variable);
    shareLearned(secret);
  };
  const hiding = {
    text: (value: string) => redact.text(value),
    // A token any client of the run learned (never a hand-made credential: those are only its own).
    learnedToken: (value: string) => shared.text(value) !== value,
    credentialHeader: (name: string) => redact.headers({ [name]: '-' })[name] === REDACTED,
  };
  let kept: RecordedExchange[] = [];
  return {
    record(e, options = {}) {
      const secretsNamed: NamedSecret[] = [...named].map(([value, variable]) => ({ value, variable }));
      // What the answer must not carry, judged before the redaction below hides it (src/client/leaks.ts).
      const leaked = leaksOf(
        e,
        secretsNamed.filter((n) => n.variable !== ACCESS_TOKEN),
        new Set(secretsNamed.filter((n) => n.variable === ACCESS_TOKEN).map((n) => n.value)),
      );
      const clean: RecordedExchange = {
        method: e.method,
        url: redact.text(e.url),
        requestHeaders: redact.headers(e.requestHeaders),
        startedAt: e.startedAt,
        durationMs: e.durationMs,
      };
      if (e.requestBody !== undefined) clean.requestBody = cutBody(redact.text(e.requestBody));
      if (e.status !== undefined) clean.status = e.status;
      if (e.responseHeaders !== undefined) clean.responseHeaders = redact.headers(e.responseHeaders);
      if (e.responseBody !== undefined) clean.responseBody = cutBody(redact.text(e.responseBody));
      if (e.responseBytes !== undefined) clean.responseBytes = e.responseBytes;
      if (e.responseNotUtf8At !== undefined) clean.responseNotUtf8At = e.responseNotUtf8At;
      if (e.error !== undefined) clean.error = redact.text(e.error);
      clean.replay =
        e.replay ??
        replayOf(
          { method: e.method, url: e.url, headers: e.requestHeaders, body: e.requestBody },
          secretsNamed,
          hiding,
          REDACTED,
          MAX_RECORDED_BODY,
          options.generated === true,
          options.madeUp === true,
        );
      if (leaked.length) clean.leaked = leaked;
      kept.push(clean);
      // A token a check asked for itself (not through the client's token manager): named like the
      // client's, so a later request that sends it has a command ($ACCESS_TOKEN), not a hidden value.
      const issued = issuedToken(e);
      if (issued !== undefined) learnLater(issued, ACCESS_TOKEN);
    },
    learn: learnLater,
    learnFromHeaders: own.learnFromHeaders,
    redact: redact.deep,
    exchanges: () => [...kept],
    clear() {
      kept = [];
    },
  };
}
