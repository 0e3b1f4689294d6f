// Issued access tokens: opaque random strings with an expiry on the virtual clock.
import { randomToken } from './secrets.ts';

export interface TokenRecord {
  clientId: string;
  userId: string;
  expiresAt: number;
  revoked: boolean;
  /** Requests served with it (the token-single-use fault refuses a second one). */
  uses: number;
}

// Old tokens are forgotten beyond this many, so a long benchmark cannot grow memory without bound.
const MAX_TOKENS = 50_000;

export class TokenStore {
  #tokens = new Map<string, TokenRecord>();
  #lastExpired = new Map<string, string>();

  issue(clientId: string, userId: string, now: number, ttlSeconds: number): string {
    if (this.#tokens.size >= MAX_TOKENS) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest !== undefined) this.#tokens.delete(oldest);
    }
    const token = randomToken();
    this.#tokens.set(token, {
      clientId,
      userId,
      expiresAt: now + ttlSeconds * 1000,
      revoked: false,
      uses: 0,
    });
    return token;
  }

  find(token: string): TokenRecord | undefined {
    return this.#tokens.get(token);
  }

  isExpired(token: string, record: TokenRecord, now: number): boolean {
    const expired = record.revoked || now >= record.expiresAt;
    if (expired) this.#lastExpired.set(record.clientId, token);
    return expired;
  }

  /** Expires one token (true when it was known), or every token when none is named. */
  expire(token?: string): number {
    const targets = token === undefined ? [...this.#tokens.keys()] : [token];
    let count = 0;
    for (const t of targets) {
      const record = this.#tokens.get(t);
      if (!record) continue;
      record.revoked = true;
      this.#lastExpired.set(record.clientId, t);
      count++;
    }
    return count;
  }

  /** Forgets a token, as if never issued (the refused-scheme-revokes-token fault). */
  forget(token: string): void {
    this.#tokens.delete(token);
  }

  /** The client's most recently expired token still in the store (for a renewal fault). */
  lastExpired(clientId: string): string | undefined {
    const token = this.#lastExpired.get(clientId);
    return token !== undefined && this.#tokens.has(token) ? token : undefined;
  }

  clear(): void {
    this.#tokens.clear();
    this.#lastExpired.clear();
  }
}
