// Talking to the reference server the way any client would: plain HTTP with undici, nothing of the
// suite's client, contract or checks (a mistake there must not be mirrored here).
import { request } from 'undici';
import { expect } from 'vitest';
import type { ErrorBody as ContractErrorBody, PagedEnvelope } from '../../src/contract/index.ts';
import {
  type ReferenceServerOptions,
  type RunningReferenceServer,
  startReferenceServer,
} from '../../src/reference/index.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: unknown;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON (content-type application/json) unless it is already a string or a Buffer. */
  body?: unknown;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** One request; `url` is absolute, or relative to the server's origin ('/api/v1/customers'). */
export async function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const headers = { ...options.headers };
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(url, { method: (options.method ?? 'GET') as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: flatten(res.headers), text, json };
}

/** A server for one test body, always closed afterwards. */
export async function withServer<T>(
  options: ReferenceServerOptions,
  body: (server: TestServer) => Promise<T>,
): Promise<T> {
  const server = await startReferenceServer(options);
  try {
    return await body(new TestServer(server));
  } finally {
    await server.close();
  }
}

/** The running server plus short ways to reach its routes with each kind of credential. */
export class TestServer {
  readonly running: RunningReferenceServer;
  readonly origin: string;

  constructor(running: RunningReferenceServer) {
    this.running = running;
    this.origin = new URL(running.apiBaseUrl).origin;
  }

  get control() {
    return this.running.control;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  call(path: string, options: CallOptions = {}): Promise<Answer> {
    return call(this.url(path), options);
  }

  keyHeaders(): Record<string, string> {
    const c = this.running.credentials;
    return { 'x-api-key-id': c.apiKeyId, 'x-api-key-secret': c.apiKeySecret };
  }

  pinnedKeyHeaders(): Record<string, string> {
    const c = this.running.credentials;
    return { 'x-api-key-id': c.pinnedApiKeyId, 'x-api-key-secret': c.pinnedApiKeySecret };
  }

  requestToken(clientSecret = this.running.credentials.clientSecret): Promise<Answer> {
    return this.call('/api/v1/auth/token', {
      method: 'POST',
      body: { client_id: this.running.credentials.clientId, client_secret: clientSecret },
    });
  }

  /** A fresh access token (the test fails if the token route does not give one). */
  async token(): Promise<string> {
    const answer = await this.requestToken();
    const token = (answer.json as { access_token?: unknown } | undefined)?.access_token;
    if (answer.status !== 200 || typeof token !== 'string') {
      throw new Error(`the token route answered ${answer.status} without an access_token`);
    }
    return token;
  }

  async bearerHeaders(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token()}` };
  }

  withKey(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.call(path, { ...options, headers: { ...this.keyHeaders(), ...options.headers } });
  }

  async withBearer(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.call(path, { ...options, headers: { ...(await this.bearerHeaders()), ...options.headers } });
  }
}

/** The document's error body; the reference server always sends `errors` (a convention the schema leaves open). */
export type ErrorBody = ContractErrorBody & { errors: string[] };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Problems of an error answer against the spec's error body (empty when it conforms). */
export function errorBodyProblems(answer: Answer, path?: string): string[] {
  const problems: string[] = [];
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) {
    problems.push(`content-type is ${answer.headers['content-type'] ?? 'absent'}`);
  }
  const body = answer.json as Partial<Record<keyof ErrorBody, unknown>> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [...problems, 'no JSON object'];
  if (body.id !== undefined && typeof body.id !== 'string') problems.push('id is not a string');
  if (typeof body.code !== 'string' || body.code === '') problems.push('code is not a string');
  if (typeof body.message !== 'string' || body.message === '') problems.push('message is missing');
  if (body.status_code !== answer.status) problems.push(`status_code ${String(body.status_code)}`);
  if (
    typeof body.timestamp !== 'string' ||
    !ISO_8601.test(body.timestamp) ||
    Number.isNaN(Date.parse(body.timestamp))
  ) {
    problems.push(`timestamp ${String(body.timestamp)} is not ISO 8601`);
  }
  if (typeof body.path !== 'string') problems.push('path is not a string');
  else if (path !== undefined && body.path !== path) problems.push(`path is ${body.path}, not ${path}`);
  if (typeof body.handled !== 'boolean') problems.push('handled is not a boolean');
  if (!Array.isArray(body.errors) || !body.errors.every((e) => typeof e === 'string')) {
    problems.push('errors is not an array of strings');
  }
  return problems;
}

/** Asserts the spec's error body with this status (and path, when given); returns the body. */
export function expectErrorBody(answer: Answer, status: number, path?: string): ErrorBody {
  expect(answer.status, answer.text).toBe(status);
  expect(errorBodyProblems(answer, path)).toEqual([]);
  return answer.json as ErrorBody;
}

/** The document's paged envelope; the reference server's customers carry a string id. */
export type Envelope = Omit<PagedEnvelope, 'data'> & { data: { id: string }[] };
