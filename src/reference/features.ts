// Feature flags: the live switches (what guards a route) and the per-user snapshot that
// GET /v1/feature-flags answers, renewed only once the window (60 s, the spec's, unless the
// flagWindowSeconds option says otherwise) of virtual time has passed.
export const FEATURES = ['customers', 'user-profile', 'reports', 'new-dashboard', 'beta-exports'] as const;
export type Feature = (typeof FEATURES)[number];

export const FLAG_CACHE_SECONDS = 60;

export function isFeature(name: string): name is Feature {
  return (FEATURES as readonly string[]).includes(name);
}

/**
 * Features that change on their own with the flagChangeSeconds option (they guard no route): at
 * period k since the start, new-dashboard is off when bit 0 of k is set and beta-exports when bit 1
 * is, so the data of any two moments one to three periods apart differs.
 */
export const CHANGING_FEATURES: readonly Feature[] = ['new-dashboard', 'beta-exports'];

export class FeatureSwitches {
  #enabled = new Map<Feature, boolean>();
  readonly #changeMs: number;
  readonly #now: () => number;
  #originMs = 0;

  /** changeSeconds: 0 for switches that change only when told; now: the server's clock. */
  constructor(changeSeconds = 0, now: () => number = Date.now) {
    this.#changeMs = changeSeconds * 1000;
    this.#now = now;
    this.reset();
  }

  reset(): void {
    for (const name of FEATURES) this.#enabled.set(name, true);
    this.#originMs = this.#now();
  }

  set(name: Feature, enabled: boolean): void {
    this.#enabled.set(name, enabled);
  }

  enabled(name: Feature): boolean {
    return (this.#enabled.get(name) ?? false) && !this.#changedOff(name);
  }

  snapshot(): { name: Feature; enabled: boolean }[] {
    return FEATURES.map((name) => ({ name, enabled: this.enabled(name) }));
  }

  #changedOff(name: Feature): boolean {
    const bit = CHANGING_FEATURES.indexOf(name);
    if (this.#changeMs <= 0 || bit < 0) return false;
    const period = Math.floor((this.#now() - this.#originMs) / this.#changeMs);
    return ((period >> bit) & 1) === 1;
  }
}

interface Snapshot {
  takenAt: number;
  flags: { name: Feature; enabled: boolean }[];
}

export type CachePolicy = 'window' | 'never-cache' | 'never-renew';

export class FlagCache {
  #byUser = new Map<string, Snapshot>();
  readonly windowSeconds: number;

  constructor(windowSeconds = FLAG_CACHE_SECONDS) {
    this.windowSeconds = windowSeconds;
  }

  /** The user's flags: the cached snapshot, renewed from the live switches once the window passed. */
  read(userId: string, switches: FeatureSwitches, now: number, policy: CachePolicy): Snapshot['flags'] {
    const cached = this.#byUser.get(userId);
    const stale =
      policy === 'never-cache' ||
      !cached ||
      (policy === 'window' && now - cached.takenAt >= this.windowSeconds * 1000);
    if (!stale) return cached.flags;
    const fresh = { takenAt: now, flags: switches.snapshot() };
    this.#byUser.set(userId, fresh);
    return fresh.flags;
  }

  clear(): void {
    this.#byUser.clear();
  }
}
