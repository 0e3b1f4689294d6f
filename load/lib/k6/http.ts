// k6/http adapters shared by the scripts: credentials as headers, the token request, one GET.
// Runs only inside k6 (imports k6 modules); the logic worth testing lives in the pure modules.
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { apiUrl, type LoadConfig } from '../config.ts';
import { errorCode, jsonBody } from '../shared/error-body.ts';

export type Response = RefinedResponse<ResponseType | undefined>;

export function apiKeyHeaders(config: LoadConfig): Record<string, string> {
  return { 'x-api-key-id': config.apiKeyId ?? '', 'x-api-key-secret': config.apiKeySecret ?? '' };
}

export function bearerHeaders(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export function bodyText(res: Response): string | null {
  return typeof res.body === 'string' ? res.body : null;
}

/** POST /v1/auth/token; throws one line (status and error code only, never the body) when refused. */
export function issueToken(config: LoadConfig): string {
  const res = http.post(
    apiUrl(config, 'v1/auth/token'),
    JSON.stringify({ client_id: config.clientId, client_secret: config.clientSecret }),
    {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      tags: { name: 'POST /v1/auth/token', endpoint: 'auth-token' },
      timeout: `${config.requestTimeoutMs}ms`,
    },
  );
  const body = bodyText(res);
  let token: unknown;
  try {
    token = body ? (JSON.parse(body) as { access_token?: unknown }).access_token : undefined;
  } catch {
    token = undefined;
  }
  if (res.status !== 200 || typeof token !== 'string' || token === '') {
    const code = errorCode(jsonBody(body));
    throw new Error(
      `token request refused: HTTP ${res.status}${code ? ` ${code}` : ''}${res.error ? ` (${res.error})` : ''}`,
    );
  }
  return token;
}

export function get(
  config: LoadConfig,
  url: string,
  headers: Record<string, string>,
  tags: Record<string, string>,
): Response {
  return http.get(url, {
    headers: { accept: 'application/json', ...headers },
    tags,
    timeout: `${config.requestTimeoutMs}ms`,
  });
}
