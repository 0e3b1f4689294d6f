// Who may call: integrator clients (client credentials -> bearer tokens) and API keys, some pinned
// to an IP address. Secrets are compared whole and in constant time; nothing here is ever echoed.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface Client {
  clientId: string;
  clientSecret: string;
  userId: string;
}

export interface ApiKey {
  keyId: string;
  keySecret: string;
  userId: string;
  /** When set, the key is accepted only from this address (spec: API key 3). */
  pinnedIp?: string;
}

export interface IssuedToken {
  userId: string;
  expiresAt: number;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function secret(prefix: string): string {
  return `${prefix}-${randomBytes(18).toString('base64url')}`;
}

export class Credentials {
  readonly client: Client = { clientId: 'indep-client', clientSecret: secret('cs'), userId: 'usr_1001' };
  readonly apiKey: ApiKey = { keyId: 'indep-key', keySecret: secret('ks'), userId: 'usr_1001' };
  readonly pinnedKey: ApiKey;
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly ttlSeconds: number;
  private readonly now: () => number;

  constructor(ttlSeconds: number, pinnedIp: string, now: () => number = Date.now) {
    this.ttlSeconds = ttlSeconds;
    this.now = now;
    this.pinnedKey = { keyId: 'indep-pinned-key', keySecret: secret('pk'), userId: 'usr_1002', pinnedIp };
  }

  findClient(clientId: unknown, clientSecret: unknown): Client | undefined {
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string') return undefined;
    const c = this.client;
    return clientId === c.clientId && sameSecret(clientSecret, c.clientSecret) ? c : undefined;
  }

  findKey(keyId: string, keySecret: string): ApiKey | undefined {
    for (const key of [this.apiKey, this.pinnedKey]) {
      if (keyId === key.keyId && sameSecret(keySecret, key.keySecret)) return key;
    }
    return undefined;
  }

  issue(userId: string, ttlSeconds = this.ttlSeconds): { token: string; expiresIn: number } {
    const token = `at_${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { userId, expiresAt: this.now() + ttlSeconds * 1000 });
    return { token, expiresIn: ttlSeconds };
  }

  /** A token whose session has already expired (for EXPIRED_ACCESS_TOKEN). */
  issueExpired(userId: string): string {
    const token = `at_${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { userId, expiresAt: this.now() - 1000 });
    return token;
  }

  lookupToken(token: string): { state: 'valid'; userId: string } | { state: 'expired' | 'unknown' } {
    const issued = this.tokens.get(token);
    if (!issued) return { state: 'unknown' };
    if (issued.expiresAt <= this.now()) return { state: 'expired' };
    return { state: 'valid', userId: issued.userId };
  }
}
