// "Reproduce with": which exchange of a failed check to repeat (the curl command itself is
// src/client/curl.ts).
import { printableCommand, UNPRINTABLE_COMMAND } from '../../common/safe-text.ts';
import { curlOf, curlVariables, settable, shellWord } from '../client/curl.ts';
import { firstLine } from '../client/errors.ts';
import type { RecordedExchange } from '../client/index.ts';
import { ACCESS_TOKEN } from '../client/replay.ts';
import type { CheckResult } from './types.ts';

export interface FailingExchange {
  index: number;
  exchange: RecordedExchange;
  /** False when the check did not say which exchange failed: then this is its last request. */
  known: boolean;
}

/**
 * The exchange the failure was about (marked by the check), else the check's last request: the
 * answer a check judged last before it failed (its first is usually the token request).
 */
export function failingExchange(check: CheckResult): FailingExchange | undefined {
  const marked = check.failedExchange === undefined ? undefined : check.exchanges[check.failedExchange];
  if (marked && check.failedExchange !== undefined)
    return { index: check.failedExchange, exchange: marked, known: true };
  const index = check.exchanges.length - 1;
  const last = check.exchanges[index];
  return last ? { index, exchange: last, known: false } : undefined;
}

/** "exchange #3 of 7 failed: GET .../customers?page=3 -> HTTP 200", or which request it is. */
export function failingExchangeText(check: CheckResult, failing: FailingExchange): string {
  const x = failing.exchange;
  const got =
    x.status === undefined ? `no response${x.error ? ` (${firstLine(x.error)})` : ''}` : `HTTP ${x.status}`;
  const of = `exchange #${failing.index + 1} of ${check.exchanges.length}`;
  const which = failing.known ? `${of} failed` : `${of}, the last before the failure`;
  return `${which}: ${x.method} ${x.url} -> ${got}`;
}

/** A command that sends the failing request again as printed, or why there is none. */
export type Reproduction = { command: string } | { note: string };

export const NO_COMMAND_HIDDEN =
  '(no command: the request sent a value the reports hide and no variable of .env holds, a credential the check derived from a secret or a token; its exchange is in results.json)';

/**
 * `ACCESS_TOKEN=$(...)`: a fresh token from the token route with the `.env` credentials, so a
 * command that sends a token runs as printed (the run's own token is never written anywhere).
 */
export function tokenPreamble(apiBaseUrl: string): string {
  const body = shellWord([
    '{"client_id":"',
    { variable: 'CLIENT_ID' },
    '","client_secret":"',
    { variable: 'CLIENT_SECRET' },
    '"}',
  ]);
  const url = shellWord([`${apiBaseUrl}${apiBaseUrl.endsWith('/') ? '' : '/'}v1/auth/token`]);
  const pick = shellWord(['s/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p']);
  return `${ACCESS_TOKEN}=$(curl -s ${url} -H 'content-type: application/json' --data-raw ${body} | sed -n ${pick})`;
}

/**
 * The one "reproduce with" of every sink: the exchange's curl line, expanding only variables a
 * person sets in `.env` (ACCESS_TOKEN is fetched first with CLIENT_ID and CLIENT_SECRET); when the
 * request sent a value no such variable holds, or a character no sink may print, a note instead.
 */
export function reproductionOf(exchange: RecordedExchange, apiBaseUrl: string): Reproduction {
  const variables = curlVariables(exchange);
  if (!variables.every(settable)) return { note: NO_COMMAND_HIDDEN };
  const curl = printableCommand(curlOf(exchange));
  if (curl === undefined) return { note: UNPRINTABLE_COMMAND };
  return { command: variables.includes(ACCESS_TOKEN) ? `${tokenPreamble(apiBaseUrl)} && ${curl}` : curl };
}

/** The reproduction as one line of text: the command, or the note. */
export const reproductionText = (r: Reproduction): string => ('command' in r ? r.command : r.note);
