// Before any check runs against a remote target: can it be reached at all? When neither service
// answers, the run ends with exit code 2 and one line naming the cause, instead of every check
// failing with the same transport error.
import { createApiClient, TransportError } from '../client/index.ts';
import { guard, secretValues, type TargetConfig } from '../config/index.ts';
import { writeProblemRun } from '../report/problem-run.ts';
import { reportsDir } from '../report/reports-dir.ts';

/** Set by the conformance CLI once it has probed the target, so global setup does not probe again. */
export const PREFLIGHT_DONE = 'CONFORMANCE_PREFLIGHT_DONE';

// A target that answers, however badly (a body over the cap, say), is there to be checked.
const UNREACHABLE_KINDS: ReadonlySet<TransportError['kind']> = new Set([
  'dns',
  'refused',
  'timeout',
  'reset',
  'tls',
]);

/** One line naming why the target cannot be reached, or undefined when one service answers. */
export async function unreachableReason(config: TargetConfig): Promise<string | undefined> {
  const client = createApiClient(config);
  const probes = [
    { service: 'main' as const, path: 'v1/customers', query: {} },
    // The pet demo is never touched where the guard forbids it (production).
    ...(guard(config, 'petstore').allowed
      ? [{ service: 'petstore' as const, path: 'pets', query: { limit: 1 } }]
      : []),
  ];
  const outcomes = await Promise.all(
    probes.map((p) =>
      client
        .request({ ...p, method: 'GET', auth: 'none', retryOn429: false })
        .then(() => undefined)
        .catch((error: unknown) =>
          error instanceof TransportError && UNREACHABLE_KINDS.has(error.kind) ? error.message : undefined,
        ),
    ),
  );
  // Any HTTP answer, even an error, means the target is there to be checked.
  if (outcomes.some((o) => o === undefined)) return undefined;
  return `cannot reach the target: ${outcomes[0]}`;
}

/**
 * Probes a remote target; when it cannot be reached, writes the reports of a run that checked
 * nothing (the reason as its problem) and returns the one line to print before exiting 2.
 */
export async function unreachableRun(config: TargetConfig, startedAt: Date): Promise<string | undefined> {
  const reason = await unreachableReason(config);
  if (!reason) return undefined;
  await writeProblemRun({
    dir: reportsDir(),
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl, petstoreBaseUrl: config.petstoreBaseUrl },
    strict: config.strict,
    startedAt,
    problem: reason,
    secrets: secretValues(config),
  }).catch((error: unknown) => {
    process.stderr.write(`conformance: could not write the reports: ${(error as Error).message}\n`);
  });
  return reason;
}
