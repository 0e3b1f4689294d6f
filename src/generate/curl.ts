// A generated request as a curl command a person can paste: one line, the target's real URL, and
// every secret written as a shell variable ($CLIENT_SECRET, $API_KEY_SECRET, $ACCESS_TOKEN), never
// its value. (A general "reproduce with curl" helper for every check is being built beside the
// reports; this one knows the generated request's exact bytes, raw bodies included.)
import type { ApiRequest } from '../client/index.ts';
import type { TargetConfig } from '../config/index.ts';

/** Single-quoted for a POSIX shell. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Quoted text in which each secret becomes "$NAME" (the quote is closed around the variable). */
function quoteWith(text: string, secrets: readonly (readonly [string, string])[]): string {
  let parts: (string | { variable: string })[] = [text];
  for (const [value, variable] of secrets) {
    if (!value) continue;
    parts = parts.flatMap((part) => {
      if (typeof part !== 'string') return [part];
      const pieces = part.split(value);
      return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [{ variable }, piece]));
    });
  }
  return (
    parts
      .map((part) => (typeof part === 'string' ? (part === '' ? '' : quote(part)) : `"$${part.variable}"`))
      .join('') || "''"
  );
}

function secretsOf(config: TargetConfig) {
  return [
    [config.credentials.clientSecret, 'CLIENT_SECRET'],
    [config.credentials.apiKeySecret, 'API_KEY_SECRET'],
    [config.credentials.pinnedApiKey?.secret ?? '', 'PINNED_API_KEY_SECRET'],
    [config.expiredAccessToken ?? '', 'EXPIRED_ACCESS_TOKEN'],
  ] as const;
}

/** Text with each secret written as its variable ($CLIENT_SECRET), for a report line. */
export function hideSecrets(text: string, config: TargetConfig): string {
  let out = text;
  for (const [value, variable] of secretsOf(config)) if (value) out = out.split(value).join(`$${variable}`);
  return out;
}

export function curlCommand(req: ApiRequest, config: TargetConfig): string {
  const secrets = secretsOf(config);
  const base = req.service === 'main' ? config.apiBaseUrl : config.petstoreBaseUrl;
  const url = new URL(req.path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const args = ['curl', '-sS', '-i', '-X', req.method, quote(url.toString())];
  const header = (text: string) => args.push('-H', quoteWith(text, secrets));
  if (req.auth === 'apiKey') {
    header(`x-api-key-id: ${config.credentials.apiKeyId}`);
    args.push('-H', `"x-api-key-secret: $API_KEY_SECRET"`);
  } else if (req.auth === 'bearer') {
    args.push('-H', `"Authorization: Bearer $ACCESS_TOKEN"`);
  }
  let body: string | undefined;
  let type: string | undefined;
  if (req.rawBody !== undefined) {
    body = req.rawBody;
    type = req.contentType;
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    type = req.contentType ?? 'application/json';
  }
  if (type !== undefined) header(`content-type: ${type}`);
  // An empty body is still sent (curl --data-raw '' sends Content-Length: 0).
  if (body !== undefined) args.push('--data-raw', quoteWith(body, secrets));
  return args.join(' ');
}
