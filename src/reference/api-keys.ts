// API keys: each tied to a user, optionally pinned to one address, optionally with its own limit.
import { DEFAULT_CREDENTIALS, DEFAULT_USER_ID, PINNED_ADDRESS, PINNED_KEY_USER_ID } from './credentials.ts';
import type { RateLimit } from './options.ts';
import { randomToken } from './secrets.ts';

export interface ApiKey {
  id: string;
  secret: string;
  userId: string;
  pinnedAddress?: string;
  rateLimit?: RateLimit;
  /** Wrong secrets sent with its id (counted only by the near-miss-locks-api-key fault). */
  wrongSecrets?: number;
}

export interface NewApiKeyOptions {
  rateLimit?: RateLimit;
  /** Pins the new key to one address (lets a test show a pinned key accepted from that address). */
  pinnedAddress?: string;
}

export class ApiKeyStore {
  #keys = new Map<string, ApiKey>();

  constructor() {
    this.reset();
  }

  reset(): void {
    this.#keys.clear();
    const c = DEFAULT_CREDENTIALS;
    this.#keys.set(c.apiKeyId, { id: c.apiKeyId, secret: c.apiKeySecret, userId: DEFAULT_USER_ID });
    this.#keys.set(c.pinnedApiKeyId, {
      id: c.pinnedApiKeyId,
      secret: c.pinnedApiKeySecret,
      userId: PINNED_KEY_USER_ID,
      pinnedAddress: PINNED_ADDRESS,
    });
  }

  find(id: string): ApiKey | undefined {
    return this.#keys.get(id);
  }

  create(options: NewApiKeyOptions = {}): ApiKey {
    const key: ApiKey = {
      id: `key_${randomToken(9)}`,
      secret: randomToken(),
      userId: DEFAULT_USER_ID,
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.pinnedAddress ? { pinnedAddress: options.pinnedAddress } : {}),
    };
    this.#keys.set(key.id, key);
    return key;
  }
}
