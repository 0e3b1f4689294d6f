// Runs one fast-check property whose every run sends a request: stops at the first violation,
// shrinks it to the smallest request that still fails (within a request cap), and says what
// proved nothing (429s, a disabled feature) instead of counting it as passed.
import fc from 'fast-check';
import type { Verdict } from './verdict.ts';

export interface ProbeResult<R> {
  verdict: Verdict;
  /** What was sent, for the report (the concrete request, fresh ids filled in). */
  request: R;
}

export interface PropertyOutcome<R> {
  /** Requests sent: runs, plus shrinking steps. */
  probes: number;
  passed: number;
  inconclusive: string[];
  failure?: {
    verdict: Extract<Verdict, { kind: 'violation' }>;
    request: R;
    /** Shrinking steps that still failed. */
    shrinks: number;
    /** fast-check's own replay path (with the same seed). */
    path?: string;
  };
}

export async function runProperty<T, R>(
  arbitrary: fc.Arbitrary<T>,
  probe: (value: T) => Promise<ProbeResult<R>>,
  options: { seed: number; numRuns: number; shrinkRequests: number },
): Promise<PropertyOutcome<R>> {
  const outcome: PropertyOutcome<R> = { probes: 0, passed: 0, inconclusive: [] };
  let shrinking = false;
  let shrinkProbes = 0;
  let last: PropertyOutcome<R>['failure'];
  let thrown: { error: unknown } | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    // After a thrown probe every candidate passes without a request: nothing is shrunk or sent again.
    if (thrown) return true;
    if (shrinking) {
      // Out of shrink requests: every further candidate counts as passing, so fast-check keeps the
      // smallest failure found so far.
      if (shrinkProbes >= options.shrinkRequests) return true;
      shrinkProbes++;
    }
    outcome.probes++;
    let probed: ProbeResult<R>;
    try {
      probed = await probe(value);
    } catch (error) {
      // Not the target's answer (the suite's own error, no token): stop at once, shrink nothing.
      thrown = { error };
      throw error;
    }
    const { verdict, request } = probed;
    if (verdict.kind === 'violation') {
      last = { verdict, request, shrinks: last ? last.shrinks + 1 : 0 };
      shrinking = true;
      return false;
    }
    if (!shrinking) {
      if (verdict.kind === 'pass') outcome.passed++;
      else outcome.inconclusive.push(verdict.reason);
    }
    return true;
  });
  const details = await fc.check(property, { seed: options.seed, numRuns: options.numRuns });
  if (thrown) throw thrown.error;
  if (details.failed && last) {
    outcome.failure = {
      ...last,
      ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
    };
  }
  return outcome;
}
