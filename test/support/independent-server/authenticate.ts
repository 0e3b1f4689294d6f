// Decides who a main-service request comes from, by the schemes its route accepts. The address
// is the socket's own: headers a client can set (X-Forwarded-For, Forwarded) are never trusted.
import type { IncomingMessage } from 'node:http';
import type { Credentials } from './credentials.ts';
import type { ErrorSpec } from './error-body.ts';
import type { IndependentOptions } from './options.ts';

export type Scheme = 'api-key' | 'bearer';
export type Caller =
  | { ok: true; userId: string; via: Scheme; credential: string }
  | { ok: false; error: ErrorSpec };

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function peerAddress(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

export function authenticate(
  req: IncomingMessage,
  accepts: readonly Scheme[],
  credentials: Credentials,
  options: IndependentOptions,
): Caller {
  const keyId = header(req, 'x-api-key-id');
  const keySecret = header(req, 'x-api-key-secret');
  const authorization = header(req, 'authorization');

  if (keyId !== undefined || keySecret !== undefined) {
    if (!accepts.includes('api-key')) {
      return {
        ok: false,
        error: {
          status: options.apiKeyOnBearerRouteStatus,
          code: 'BEARER_TOKEN_REQUIRED',
          message: 'this route accepts a bearer token only',
        },
      };
    }
    if (!keyId || !keySecret) {
      return {
        ok: false,
        error: {
          status: 401,
          code: 'INVALID_API_KEY',
          message: 'both x-api-key-id and x-api-key-secret are needed',
        },
      };
    }
    const key = credentials.findKey(keyId, keySecret);
    if (!key)
      return {
        ok: false,
        error: { status: 401, code: 'INVALID_API_KEY', message: 'API key not recognised' },
      };
    if (key.pinnedIp !== undefined && key.pinnedIp !== peerAddress(req)) {
      return {
        ok: false,
        error: {
          status: 403,
          code: 'IP_NOT_ALLOWED',
          message: 'this API key is not accepted from this address',
        },
      };
    }
    return { ok: true, userId: key.userId, via: 'api-key', credential: `key:${key.keyId}` };
  }

  if (authorization !== undefined) {
    if (!accepts.includes('bearer')) {
      return {
        ok: false,
        error: { status: 401, code: 'API_KEY_REQUIRED', message: 'this route accepts an API key only' },
      };
    }
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim());
    if (!match?.[1]) {
      return {
        ok: false,
        error: { status: 401, code: 'INVALID_TOKEN', message: 'expected Authorization: Bearer <token>' },
      };
    }
    const found = credentials.lookupToken(match[1]);
    if (
      found.state === 'expired' ||
      (found.state === 'unknown' && options.unknownToken === 'session-expired')
    ) {
      return {
        ok: false,
        error: {
          status: options.sessionExpiredStatus,
          code: 'SESSION_EXPIRED',
          message: 'the session has expired; request a new token',
        },
      };
    }
    if (found.state !== 'valid') {
      return {
        ok: false,
        error: { status: 401, code: 'INVALID_TOKEN', message: 'access token not recognised' },
      };
    }
    return { ok: true, userId: found.userId, via: 'bearer', credential: `user:${found.userId}` };
  }

  return { ok: false, error: { status: 401, code: 'UNAUTHENTICATED', message: 'credentials are required' } };
}
