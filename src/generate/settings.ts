// CONFORMANCE_SEED and CONFORMANCE_GENERATED: the run's seed (printed; the same seed replays a run
// exactly) and its request budget (0 switches generation off).
export const DEFAULT_BUDGET = 300;
export const MAX_BUDGET = 100_000;
/** Requests a failing property may spend shrinking, on top of the budget. */
export const SHRINK_REQUESTS = 60;

export interface GenerationSettings {
  seed: number;
  /** Whether the seed was given (a replay) or drawn. */
  replay: boolean;
  budget: number;
}

/** One line naming the variable, or the settings. */
export function generationSettings(
  env: NodeJS.ProcessEnv = process.env,
  draw: () => number = () => Math.floor(Math.random() * 2 ** 31),
): { ok: true; settings: GenerationSettings } | { ok: false; problem: string } {
  const seedText = env.CONFORMANCE_SEED?.trim();
  const budgetText = env.CONFORMANCE_GENERATED?.trim();
  if (seedText && !(/^\d{1,10}$/.test(seedText) && Number(seedText) < 2 ** 31)) {
    return {
      ok: false,
      problem: `CONFORMANCE_SEED must be a whole number from 0 to ${2 ** 31 - 1} (the seed a run printed), got "${seedText.slice(0, 20)}"`,
    };
  }
  if (budgetText && !(/^\d{1,6}$/.test(budgetText) && Number(budgetText) <= MAX_BUDGET)) {
    return {
      ok: false,
      problem: `CONFORMANCE_GENERATED must be a whole number of requests from 0 (off) to ${MAX_BUDGET}, got "${budgetText.slice(0, 20)}"`,
    };
  }
  return {
    ok: true,
    settings: {
      seed: seedText ? Number(seedText) : draw(),
      replay: Boolean(seedText),
      budget: budgetText ? Number(budgetText) : DEFAULT_BUDGET,
    },
  };
}

/** A sub-seed per property, stable across runs: FNV-1a of the name, mixed with the run's seed. */
export function subSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
