// Puts a target where the checks' inject('target') reads it. The conformance project's global
// setup provides it; the self project has none, and vitest itself cannot be mocked, so the tests
// write it into the worker's provided context. provideTarget checks it took effect, so a vitest
// upgrade that moves this fails loudly rather than testing nothing.
import { inject } from 'vitest';
import type { TargetConfig } from '../../src/config/index.ts';
import type { Area } from '../../src/rules/catalogue.ts';
import '../../src/checks/meta.ts';

interface WorkerState {
  providedContext: Record<string, unknown>;
}

export function provideTarget(config: TargetConfig): void {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  if (!state?.providedContext) throw new Error("vitest's worker state has no provided context");
  state.providedContext.target = config;
  if (inject('target') !== config) throw new Error("inject('target') does not see the provided target");
}

/** Gives each area's checks their own target (what the fault matrix does), for concurrent suites. */
export function provideTargetsByArea(targets: Partial<Record<Area, TargetConfig>>): void {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  if (!state?.providedContext) throw new Error("vitest's worker state has no provided context");
  state.providedContext.targetsByArea = targets;
  if (inject('targetsByArea') !== targets)
    throw new Error("inject('targetsByArea') does not see the targets");
}

/** A remote target whose addresses are `origin`: nothing listens there unless a test starts it. */
export function remoteTarget(
  target: TargetConfig['target'],
  allowProductionWrites: boolean,
  origin = 'http://127.0.0.1:9',
): TargetConfig {
  return {
    target,
    apiBaseUrl: `${origin}/api/`,
    petstoreBaseUrl: `${origin}/petstore/v1`,
    credentials: {
      clientId: 'guard-client',
      clientSecret: 'guard-client-secret-0c1d2e',
      apiKeyId: 'guard-key',
      apiKeySecret: 'guard-key-secret-3f4a5b',
    },
    allowProductionWrites,
    requestTimeoutMs: 2_000,
    strict: false,
    slow: false,
  };
}
