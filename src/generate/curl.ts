// A generated request as a curl command a person can paste: one line, the target's real URL, and
// every secret written as a shell variable ($CLIENT_SECRET, $API_KEY_SECRET, $ACCESS_TOKEN), never
// its value; raw bodies byte for byte.
import { curlOf } from '../client/curl.ts';
import { type ApiRequest, createSecretFilter, REDACTED, type RecordedExchange } from '../client/index.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';

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

/**
 * The request as the client would send it, redacted as the recorder redacts an exchange, rendered by
 * the one curl renderer of the reports (src/client/curl.ts): secrets become $VARIABLES there.
 */
export function curlCommand(req: ApiRequest, config: TargetConfig): string {
  const base = req.service === 'main' ? config.apiBaseUrl : config.petstoreBaseUrl;
  const url = new URL(req.path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = {};
  if (req.auth === 'apiKey') {
    headers['x-api-key-id'] = config.credentials.apiKeyId;
    headers['x-api-key-secret'] = REDACTED;
  } else if (req.auth === 'bearer') {
    headers.authorization = `Bearer ${REDACTED}`;
  }
  let body: string | undefined;
  if (req.rawBody !== undefined) {
    body = req.rawBody;
    if (req.contentType !== undefined) headers['content-type'] = req.contentType;
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] = req.contentType ?? 'application/json';
  }
  const redact = createSecretFilter(secretValues(config)).text;
  const exchange: RecordedExchange = {
    method: req.method,
    url: url.toString(),
    requestHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)])),
    startedAt: '',
    durationMs: 0,
  };
  if (body !== undefined) exchange.requestBody = redact(body);
  return curlOf(exchange);
}
