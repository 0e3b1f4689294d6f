// The production guard: the one place that decides what may run against which target, for the
// suite (src/config/guard.ts re-exports it) and the k6 scripts (load/lib/config.ts). k6-safe.
// Production is real money: writes and load only when explicitly allowed, the pet demo never.
// Production is named by the label or by the address (PRODUCTION_API_BASE_URL and its twin).
import { urlHost } from './config-rules.ts';

export type GuardedAction = 'write' | 'load' | 'petstore';
export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

export interface GuardedTarget {
  target: string;
  allowProductionWrites: boolean;
  /** Where the run goes, and production's addresses as the team declared them (PRODUCTION_*). */
  apiBaseUrl?: string | undefined;
  petstoreBaseUrl?: string | undefined;
  productionApiBaseUrl?: string | undefined;
  productionPetstoreBaseUrl?: string | undefined;
}

/**
 * Production's host this run goes to, when it goes to one of the declared production addresses
 * (hosts compared in the one spelling the configuration gives them, common/host.ts), whatever
 * its label says.
 */
export function productionHostOf(config: GuardedTarget): string | undefined {
  const production = [config.productionApiBaseUrl, config.productionPetstoreBaseUrl]
    .map((u) => (u ? urlHost(u) : undefined))
    .filter((h): h is string => h !== undefined);
  return [config.apiBaseUrl, config.petstoreBaseUrl]
    .map((u) => (u ? urlHost(u) : undefined))
    .find((h) => h !== undefined && production.includes(h));
}

/** Production by its label, or by its address. */
export function isProduction(config: GuardedTarget): boolean {
  return config.target === 'production' || productionHostOf(config) !== undefined;
}

export function guard(config: GuardedTarget, action: GuardedAction): GuardVerdict {
  if (!isProduction(config)) return { allowed: true };
  const verdict = productionGuard(config, action);
  const host = config.target === 'production' ? undefined : productionHostOf(config);
  // Said first when the label hid it: the reader should know why a staging run was held back.
  return verdict.allowed || host === undefined
    ? verdict
    : {
        allowed: false,
        reason: `${host} is a production address (PRODUCTION_*_BASE_URL), whatever CONFORMANCE_TARGET says: ${verdict.reason}`,
      };
}

function productionGuard(config: GuardedTarget, action: GuardedAction): GuardVerdict {
  switch (action) {
    case 'petstore':
      return {
        allowed: false,
        reason:
          'the pet demo interface is never exercised against production (the spec: "not to be used in production")',
      };
    case 'write':
      return config.allowProductionWrites
        ? { allowed: true }
        : {
            allowed: false,
            reason: 'writes to production are off (set ALLOW_PRODUCTION_WRITES=yes to allow them)',
          };
    case 'load':
      return config.allowProductionWrites
        ? { allowed: true }
        : {
            allowed: false,
            reason: 'load against production is off (set ALLOW_PRODUCTION_WRITES=yes to allow it)',
          };
  }
}
