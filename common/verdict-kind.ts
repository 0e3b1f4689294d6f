// The kinds of verdict, one vocabulary for both sides of the k6 boundary: the checks' failures
// (src/checks/failure.ts), the invariants, the generated requests and the load runs' findings. The
// fault matrix credits a fault only for a kind that fits it; a `suite-error` is the suite's own
// (a run error, exit 2), never the target's; `inconclusive` only where the target gave nothing to
// judge, never on a 5xx. k6-safe: no imports.

export type VerdictKind =
  | 'server-error'
  | 'schema'
  | 'status'
  | 'content'
  | 'missing-refusal'
  | 'relation'
  | 'suite-error'
  | 'inconclusive';

export const VERDICT_KINDS: readonly VerdictKind[] = [
  'server-error',
  'schema',
  'status',
  'content',
  'missing-refusal',
  'relation',
  'suite-error',
  'inconclusive',
];

/** A kind that says the target broke its rule (a suite error or no evidence says nothing of it). */
export const blamesTarget = (kind: VerdictKind | undefined): boolean =>
  kind !== 'suite-error' && kind !== 'inconclusive';

/** A status the target answered is a server error, whatever was asked (GNR-01's kind). */
export const kindOfStatus = (status: number): VerdictKind => (status >= 500 ? 'server-error' : 'status');
