// Feature flags: the live switches (what guards a route) and the per-user snapshot that
// GET /v1/feature-flags answers, renewed only once 60 s of virtual time have passed.
export const FEATURES = ['customers', 'user-profile', 'reports', 'new-dashboard', 'beta-exports'] as const;
export type Feature = (typeof FEATURES)[number];

export const FLAG_CACHE_SECONDS = 60;

export function isFeature(name: string): name is Feature {
  return (FEATURES as readonly string[]).includes(name);
}

export class FeatureSwitches {
  #enabled = new Map<Feature, boolean>();

  constructor() {
    this.reset();
  }

  reset(): void {
    for (const name of FEATURES) this.#enabled.set(name, true);
  }

  set(name: Feature, enabled: boolean): void {
    this.#enabled.set(name, enabled);
  }

  enabled(name: Feature): boolean {
    return this.#enabled.get(name) ?? false;
  }

  snapshot(): { name: Feature; enabled: boolean }[] {
    return FEATURES.map((name) => ({ name, enabled: this.enabled(name) }));
  }
}

interface Snapshot {
  takenAt: number;
  flags: { name: Feature; enabled: boolean }[];
}

export type CachePolicy = 'window' | 'never-cache' | 'never-renew';

export class FlagCache {
  #byUser = new Map<string, Snapshot>();

  /** The user's flags: the cached snapshot, renewed from the live switches once the window passed. */
  read(userId: string, switches: FeatureSwitches, now: number, policy: CachePolicy): Snapshot['flags'] {
    const cached = this.#byUser.get(userId);
    const stale =
      policy === 'never-cache' ||
      !cached ||
      (policy === 'window' && now - cached.takenAt >= FLAG_CACHE_SECONDS * 1000);
    if (!stale) return cached.flags;
    const fresh = { takenAt: now, flags: switches.snapshot() };
    this.#byUser.set(userId, fresh);
    return fresh.flags;
  }

  clear(): void {
    this.#byUser.clear();
  }
}
