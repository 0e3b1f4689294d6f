// Client of the reference server's control API (only reachable when the server was started with
// control on). It lets checks observe rules that need time to pass or state to change, which a
// remote target cannot offer: those checks are skipped there, never passed.
import { request } from 'undici';

export interface ControlClient {
  advanceClock(seconds: number): Promise<void>;
  setFeature(name: string, enabled: boolean): Promise<void>;
  expireSessions(accessToken?: string): Promise<void>;
  /** A fresh key, optionally with its own limit, optionally pinned to an address. */
  createApiKey(
    rateLimit?: { limit: number; windowSeconds: number },
    pinnedAddress?: string,
  ): Promise<{ id: string; secret: string }>;
  requestCounts(): Promise<{ total: number; byRoute: Record<string, number>; tokenRequests: number }>;
  /** The server's virtual time (ms): real time plus what advanceClock has added, by any check. */
  now(): Promise<number>;
}

/** The target's control client, or undefined when it offers no control API. */
export function controlOf(config: { controlUrl?: string | undefined }): ControlClient | undefined {
  return config.controlUrl ? createControlClient(config.controlUrl) : undefined;
}

export function createControlClient(controlUrl: string, timeoutMs = 5_000): ControlClient {
  const base = controlUrl.endsWith('/') ? controlUrl : `${controlUrl}/`;

  async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const url = new URL(path, base);
    const res = await request(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) {
      throw new Error(
        `control API ${method} ${url.pathname} answered ${res.statusCode}: ${text.slice(0, 200)}`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    advanceClock: (seconds) => call('POST', 'clock/advance', { seconds }),
    setFeature: (name, enabled) => call('PUT', `features/${encodeURIComponent(name)}`, { enabled }),
    expireSessions: (accessToken) =>
      call('POST', 'sessions/expire', accessToken === undefined ? {} : { access_token: accessToken }),
    createApiKey: (rateLimit, pinnedAddress) =>
      call('POST', 'api-keys', {
        ...(rateLimit === undefined ? {} : { rateLimit }),
        ...(pinnedAddress === undefined ? {} : { pinnedAddress }),
      }),
    requestCounts: () => call('GET', 'requests'),
    now: async () => Date.parse((await call<{ now: string }>('GET', '')).now),
  };
}
