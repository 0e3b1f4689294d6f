// "Reproduce with": which exchange of a failed check to repeat (the curl command itself is
// src/client/curl.ts).
import { firstLine } from '../client/errors.ts';
import type { RecordedExchange } from '../client/index.ts';
import type { CheckResult } from './types.ts';

export interface FailingExchange {
  index: number;
  exchange: RecordedExchange;
  /** False when the check did not say which exchange failed: then this is its first request. */
  known: boolean;
}

/** The exchange the failure was about (marked by the check), else the check's first request. */
export function failingExchange(check: CheckResult): FailingExchange | undefined {
  const marked = check.failedExchange === undefined ? undefined : check.exchanges[check.failedExchange];
  if (marked && check.failedExchange !== undefined)
    return { index: check.failedExchange, exchange: marked, known: true };
  const first = check.exchanges[0];
  return first ? { index: 0, exchange: first, known: false } : undefined;
}

/** "exchange #3 of 7 failed: GET .../customers?page=3 -> HTTP 200", or which request it is. */
export function failingExchangeText(check: CheckResult, failing: FailingExchange): string {
  const x = failing.exchange;
  const got =
    x.status === undefined ? `no response${x.error ? ` (${firstLine(x.error)})` : ''}` : `HTTP ${x.status}`;
  const which = failing.known
    ? `exchange #${failing.index + 1} of ${check.exchanges.length} failed`
    : `which of the ${check.exchanges.length} exchanges failed is not known; the first`;
  return `${which}: ${x.method} ${x.url} -> ${got}`;
}
