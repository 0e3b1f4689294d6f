// The production guard: the one place that decides what may run against which target, for the
// suite (src/config/guard.ts re-exports it) and the k6 scripts (load/lib/config.ts). k6-safe.
// Production is real money: writes and load only when explicitly allowed, the pet demo never.

export type GuardedAction = 'write' | 'load' | 'petstore';
export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

export interface GuardedTarget {
  target: string;
  allowProductionWrites: boolean;
}

export function guard(config: GuardedTarget, action: GuardedAction): GuardVerdict {
  if (config.target !== 'production') return { allowed: true };
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
