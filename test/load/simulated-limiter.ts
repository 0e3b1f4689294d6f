// A limiter on a virtual clock behind the probe's ProbeIO: the reference server's limiter shapes
// (and a clock-aligned fixed window, which the reference server does not have), answering as a
// server would (error body, Retry-After, optional RateLimit headers) with a chosen fault. Each
// request takes `latencyMs` of virtual time, so nothing waits for real.
import type { ProbeAnswer, ProbeIO } from '../../load/lib/limit-probe.ts';
import type { RateLimit } from '../../src/reference/options.ts';
import { RateLimiter, rateLimitHeaders, type Verdict } from '../../src/reference/rate-limiter.ts';

export type SimulatedShape = RateLimit | { shape: 'aligned-window'; limit: number; windowSeconds: number };

export interface Simulation {
  limit: SimulatedShape | null;
  headers?: boolean;
  fault?: 'no-body' | '500' | 'missing' | 'retry-after-too-short';
  latencyMs?: number;
  /** Virtual ms at which the probe starts (moves aligned windows against the probe). */
  startMs?: number;
  /** The first batches are slow (new connections): a first burst slower than the later ones. */
  slowStart?: { batches: number; latencyMs: number };
}

function alignedWindow(limit: { limit: number; windowSeconds: number }) {
  const counts = new Map<number, number>();
  return (now: number): Verdict => {
    const windowMs = limit.windowSeconds * 1000;
    const index = Math.floor(now / windowMs);
    const resetMs = (index + 1) * windowMs - now;
    const used = counts.get(index) ?? 0;
    if (used >= limit.limit) return { allowed: false, retryAfterMs: resetMs, remaining: 0, resetMs };
    counts.set(index, used + 1);
    return { allowed: true, remaining: limit.limit - used - 1, resetMs };
  };
}

export function simulatedIO(sim: Simulation): ProbeIO & { requests: () => number } {
  let now = sim.startMs ?? 1_000_000;
  let requests = 0;
  let batches = 0;
  const latency = sim.latencyMs ?? 2;
  const limiter = new RateLimiter();
  const aligned = sim.limit?.shape === 'aligned-window' ? alignedWindow(sim.limit) : undefined;
  const hit = (at: number): Verdict | undefined => {
    if (!sim.limit) return undefined;
    if (aligned) return aligned(at);
    return limiter.hit('k', sim.limit as RateLimit, at);
  };
  function answer(at: number): ProbeAnswer {
    requests++;
    const counted = hit(at);
    const verdict = counted && sim.fault === 'missing' ? { ...counted, allowed: true as const } : counted;
    const headers: Record<string, string> =
      sim.headers && counted && sim.limit ? rateLimitHeaders(sim.limit as RateLimit, counted) : {};
    const base = { sentAtMs: at, receivedAtMs: at + latency };
    if (!verdict || verdict.allowed) return { ...base, status: 200, headers, body: '{"data":[]}' };
    const wait = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    const advertised = sim.fault === 'retry-after-too-short' ? (wait > 1 ? 1 : 0) : wait;
    const status = sim.fault === '500' ? 500 : 429;
    const body =
      sim.fault === 'no-body'
        ? ''
        : JSON.stringify({ code: 'RATE_LIMITED', message: 'too many requests', status_code: status });
    return { ...base, status, headers: { ...headers, 'Retry-After': String(advertised) }, body };
  }
  return {
    now: () => now,
    sleep: (ms) => {
      now += ms;
    },
    send: (count) => {
      // A batch leaves together; the server sees its requests one after the other.
      const slow = sim.slowStart && batches < sim.slowStart.batches ? sim.slowStart.latencyMs : latency;
      batches++;
      const answers = Array.from({ length: count }, (_, i) => answer(now + (i * slow) / count));
      now += slow;
      return answers;
    },
    requests: () => requests,
  };
}
