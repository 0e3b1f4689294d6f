// Feature flags per user, cached 60 s (spec: Endpoints rule 1; Limits): the data a user sees is
// renewed at most once per 60 s, counted from the renewal. The entry shape is this server's own
// (spec: "Fields of feature flag entries: not shown").
/** The cached answer, in the shape the options chose. */
export type FlagShape = 'object' | 'array' | 'map';

export interface FlagSnapshot {
  user_id: string;
  features: { feature: string; enabled: boolean }[];
  snapshot_at: string;
}

export class FeatureFlags {
  private readonly cache = new Map<string, { snapshot: FlagSnapshot; renewedAt: number }>();

  private readonly state: () => Record<string, boolean>;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(state: () => Record<string, boolean>, windowMs = 60_000, now: () => number = Date.now) {
    this.state = state;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** The user's flags as the answer's JSON value, in one of three shapes a server might choose. */
  answerFor(userId: string, shape: FlagShape): unknown {
    const snapshot = this.forUser(userId);
    if (shape === 'array') return snapshot.features;
    if (shape === 'map') return Object.fromEntries(snapshot.features.map((f) => [f.feature, f.enabled]));
    return snapshot;
  }

  forUser(userId: string): FlagSnapshot {
    const cached = this.cache.get(userId);
    const t = this.now();
    if (cached && t - cached.renewedAt < this.windowMs) return cached.snapshot;
    const snapshot: FlagSnapshot = {
      user_id: userId,
      features: Object.entries(this.state()).map(([feature, enabled]) => ({ feature, enabled })),
      snapshot_at: new Date(t).toISOString(),
    };
    this.cache.set(userId, { snapshot, renewedAt: t });
    return snapshot;
  }
}
