// Everything a running server holds, and the way back to its start state (control reset()).
import { ApiKeyStore } from './api-keys.ts';
import { VirtualClock } from './clock.ts';
import { ActiveFaults } from './faults.ts';
import { FeatureSwitches, FlagCache } from './features.ts';
import type { RateLimit, ResolvedOptions } from './options.ts';
import { PetStore } from './pet-store.ts';
import { RateLimiter } from './rate-limiter.ts';
import { RequestCounter } from './request-counts.ts';
import { TokenStore } from './tokens.ts';

export class ServerState {
  readonly options: ResolvedOptions;
  readonly clock = new VirtualClock();
  readonly faults: ActiveFaults;
  readonly features: FeatureSwitches;
  readonly flagCache: FlagCache;
  readonly tokens = new TokenStore();
  readonly apiKeys = new ApiKeyStore();
  readonly limiter = new RateLimiter();
  readonly pets: PetStore;
  readonly counts = new RequestCounter();
  tokenTtlSeconds: number;
  rateLimit: RateLimit | null;
  /** http://host:port once listening (for links the server sends). */
  origin = '';

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.faults = new ActiveFaults(options.faults);
    this.features = new FeatureSwitches(options.flagChangeSeconds, () => this.clock.now());
    this.flagCache = new FlagCache(options.flagWindowSeconds);
    this.pets = new PetStore(options.seed, options.pets, options.choices['pet-ids'] === 'int64');
    this.tokenTtlSeconds = options.tokenTtlSeconds;
    this.rateLimit = options.rateLimit;
  }

  now(): number {
    return this.clock.now();
  }

  reset(): void {
    this.clock.reset();
    this.faults.set(this.options.faults);
    this.features.reset();
    this.flagCache.clear();
    this.tokens.clear();
    this.apiKeys.reset();
    this.limiter.clear();
    this.pets.reset();
    this.counts.reset();
    this.tokenTtlSeconds = this.options.tokenTtlSeconds;
    this.rateLimit = this.options.rateLimit;
  }
}
