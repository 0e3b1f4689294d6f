// An exchange as a curl command a person can paste. The exchange is already redacted; every
// redacted value becomes a shell variable named for what it held ($CLIENT_SECRET, $API_KEY_SECRET,
// $ACCESS_TOKEN), so the command works once those are exported and never carries a secret itself.
// One renderer for every "reproduce with" line: a failed check's exchange and a generated request.
import { REDACTED } from '../../load/lib/shared/secret-filter.ts';
import type { RecordedExchange } from './types.ts';

/** Headers curl sets itself or that only describe the transport. */
const DROPPED = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'user-agent']);
const MARK = '\u0000';

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
