// "Reproduce with": the failing exchange as a curl command a person can paste. The exchange is
// already redacted; every redacted value becomes a shell variable named for what it held
// ($CLIENT_SECRET, $API_KEY_SECRET, $ACCESS_TOKEN), so the command works once those are exported
// and never carries a secret itself.
import { REDACTED, type RecordedExchange } from '../client/index.ts';
import type { CheckResult } from './types.ts';

/** Headers curl sets itself or that only describe the transport. */
const DROPPED = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'user-agent']);
const MARK = '\u0000';

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
    x.status === undefined
      ? `no response${x.error ? ` (${x.error.split('\n')[0]})` : ''}`
      : `HTTP ${x.status}`;
  const which = failing.known
    ? `exchange #${failing.index + 1} of ${check.exchanges.length} failed`
    : `which of the ${check.exchanges.length} exchanges failed is not known; the first`;
  return `${which}: ${x.method} ${x.url} -> ${got}`;
}

/** Single-quoted shell words, with each marked variable spliced in as "$NAME". */
function shellWord(text: string): string {
  return (
    text
      .split(MARK)
      .map((part, i) => (i % 2 === 1 ? `"$${part}"` : part ? `'${part.replace(/'/g, `'\\''`)}'` : ''))
      .join('') || "''"
  );
}

const variable = (name: string) => `${MARK}${name}${MARK}`;

function headerValue(name: string, value: string): string {
  if (!value.includes(REDACTED)) return value;
  const lower = name.toLowerCase();
  if (lower === 'authorization') return `Bearer ${variable('ACCESS_TOKEN')}`;
  if (lower === 'x-api-key-secret') return variable('API_KEY_SECRET');
  return value.split(REDACTED).join(variable(lower.replace(/[^a-z0-9]+/g, '_').toUpperCase()));
}

/** "client_secret": "[REDACTED]" becomes "client_secret": "$CLIENT_SECRET"; any other one $SECRET. */
function bodyText(body: string): string {
  return body
    .replace(
      /("([A-Za-z0-9_-]+)"\s*:\s*")\[REDACTED\]"/g,
      (_m, head: string, field: string) => `${head}${variable(field.replace(/-/g, '_').toUpperCase())}"`,
    )
    .replace(
      /([A-Za-z0-9_-]+)=\[REDACTED\]/g,
      (_m, field: string) => `${field}=${variable(field.toUpperCase())}`,
    )
    .split(REDACTED)
    .join(variable('SECRET'));
}

export function curlOf(exchange: RecordedExchange): string {
  const parts = ['curl', '-i'];
  if (exchange.method !== 'GET' || exchange.requestBody !== undefined) parts.push('-X', exchange.method);
  parts.push(shellWord(exchange.url.split(REDACTED).join(variable('SECRET'))));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (DROPPED.has(name.toLowerCase())) continue;
    parts.push('-H', shellWord(`${name}: ${headerValue(name, value)}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', shellWord(bodyText(exchange.requestBody)));
  return parts.join(' ');
}

/** The variables a command needs, for the line that says which to export. */
export function variablesOf(command: string): string[] {
  return [...new Set([...command.matchAll(/"\$([A-Z0-9_]+)"/g)].map((m) => m[1] ?? ''))].filter(Boolean);
}
