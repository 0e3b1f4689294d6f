// What the rate-limit probe reports: the measured limit, what the headers declare, the 429 checks,
// and whether the run was conclusive. Pure (the probe's result in, report parts out).
import { OUTRUN_FACTOR, type ProbeResult } from './limit-probe.ts';
import type { DeclaredLimit } from './rate-headers.ts';
import type { RatePlan } from './rate-plan.ts';
import type { Figure, Verdict } from './summary/report.ts';

/** Two figures agree when they are within this fraction of each other. */
export const AGREEMENT = 0.2;

export interface RateLimitFindings {
  figures: Figure[];
  verdicts: Verdict[];
  notes: string[];
  analysis: Record<string, unknown>;
  /** Set when the run could not put the rule to the test: why. */
  inconclusive?: string;
  failed: boolean;
}

/** (measured - reference) / reference, rounded to 0.1 %. */
export function deviation(measured: number, reference: number): number {
  return Math.round(((measured - reference) / reference) * 1000) / 1000;
}

const pct = (d: number) => `${d >= 0 ? '+' : ''}${(d * 100).toFixed(1)} %`;

function describeDeclared(d: DeclaredLimit): string {
  if (!d.sources.length) return 'nothing (no RateLimit, X-RateLimit-* or Retry-After header)';
  const parts = [
    d.quota !== undefined
      ? `quota ${d.quota}${d.windowSeconds !== undefined ? ` per ${d.windowSeconds} s` : ''}`
      : '',
    d.retryAfterSeconds !== undefined ? `Retry-After up to ${d.retryAfterSeconds} s` : '',
  ].filter(Boolean);
  return `${parts.join(', ') || 'no quota'} (${d.sources.join(', ')})`;
}

/** Where the declared policy and the measurement disagree by more than AGREEMENT. */
export function disagreements(result: ProbeResult): string[] {
  const { limit, tally } = result;
  const d = limit.declared;
  const out: string[] = [];
  // A probe that could not tell measured nothing to hold against the headers.
  if (d.quota === undefined || limit.cannotTell) return out;
  if (!limit.limited && tally.accepted > d.quota) {
    out.push(
      `the headers declare a quota of ${d.quota}, but ${tally.accepted} requests were accepted without a refusal`,
    );
    return out;
  }
  const observed = limit.shape === 'window' ? limit.limitPerWindow : limit.burst;
  if (observed !== undefined && Math.abs(deviation(observed, d.quota)) > AGREEMENT) {
    out.push(`declared quota ${d.quota}, measured ${observed} (${pct(deviation(observed, d.quota))})`);
  }
  if (limit.shape === 'window' && d.windowSeconds !== undefined && limit.windowSeconds !== undefined) {
    const off = deviation(limit.windowSeconds, d.windowSeconds);
    if (Math.abs(off) > AGREEMENT) {
      out.push(`declared window ${d.windowSeconds} s, measured ${limit.windowSeconds} s (${pct(off)})`);
    }
  }
  return out;
}

/**
 * Why a burst that met no refusal proves nothing, or undefined when it did outrun the limit: the
 * probe must have sent at least OUTRUN_FACTOR times faster than the declared (or expected) rate.
 */
export function tooSlowToJudge(result: ProbeResult, plan: RatePlan): string | undefined {
  const { limit } = result;
  const pace = limit.timing?.firstBurstPerSecond;
  if (limit.limited || pace === undefined) return undefined;
  const d = limit.declared;
  const rates = [
    d.quota !== undefined ? d.quota / (d.windowSeconds ?? 1) : undefined,
    plan.expected.ratePerSecond,
  ].filter((r): r is number => r !== undefined);
  if (!rates.length) return undefined;
  const needed = Math.max(...rates) * OUTRUN_FACTOR;
  return pace < needed
    ? `the probe sent only ${pace} req/s, under the ${needed} req/s that would outrun the limit it looks for (k6 short of CPU?)`
    : undefined;
}

export function rateLimitFindings(result: ProbeResult, plan: RatePlan): RateLimitFindings {
  const { limit, tally } = result;
  const slow = tooSlowToJudge(result, plan);
  const fmt = (v: number | undefined, unit = '') => (v === undefined ? 'not measured' : `${v}${unit}`);
  const figures: Figure[] = [
    {
      label: 'shape',
      value: limit.cannotTell
        ? `cannot tell: ${limit.cannotTell}`
        : limit.limited
          ? limit.shape
          : 'no limiter met',
    },
    {
      label: 'burst',
      // A probe that cannot tell has no allowance either: a starved first burst spans several windows
      // (38 accepted of a 20-per-1-s window, its batches 2.3 s each), so its count is said for what it is.
      value:
        limit.cannotTell && limit.burst !== undefined
          ? `not measured (${limit.burst} accepted before the first 429, no measure of the allowance when the timing cannot tell)`
          : fmt(limit.burst, ' requests'),
    },
    { label: 'sustained rate', value: fmt(limit.ratePerSecond, ' req/s') },
    ...(limit.shape === 'window'
      ? [
          {
            label: 'window',
            value: `${fmt(limit.limitPerWindow, ' requests')} per ${fmt(limit.windowSeconds, ' s')}`,
          },
        ]
      : []),
    { label: 'method', value: limit.method },
    { label: 'declared', value: describeDeclared(limit.declared) },
    {
      label: 'answers',
      value: `${tally.accepted} accepted, ${tally.limited} × 429, ${tally.serverErrors} × 5xx or none${tally.refusalStatuses.length ? ` (${tally.refusalStatuses.join(', ')})` : ''}, ${tally.other} other${tally.otherStatuses.length ? ` (${tally.otherStatuses.join(', ')})` : ''}`,
    },
    {
      label: 'probe',
      value: `${plan.profile} profile: GET /${plan.path} (${plan.auth}), ${(result.durationMs / 1000).toFixed(1)} s of a ${plan.limits.budgetMs / 1000} s budget (meant for windows up to ${plan.longestWindow})`,
    },
  ];
  if (tally.retryAfterMin !== undefined) {
    figures.push({ label: 'Retry-After', value: `${tally.retryAfterMin} s to ${tally.retryAfterMax} s` });
  }

  const declaredOff = disagreements(result);
  const expectedOff: string[] = [];
  const expectations: Record<string, unknown> = {};
  for (const [name, expected] of Object.entries(plan.expected)) {
    const measured = name === 'burst' ? limit.burst : limit.ratePerSecond;
    if (expected === undefined || limit.cannotTell || slow) continue;
    const off = measured === undefined ? undefined : deviation(measured, expected);
    expectations[name] = { expected, measured, deviation: off };
    if (off === undefined || Math.abs(off) > AGREEMENT) {
      expectedOff.push(
        `${name}: expected ${expected}, measured ${measured ?? 'nothing'}${off === undefined ? '' : ` (${pct(off)})`}`,
      );
    }
  }

  const refusedOtherwise = tally.refusalStatuses.length > 0;
  const notLimitedFails =
    !limit.limited && slow === undefined && (declaredOff.length > 0 || expectedOff.length > 0);
  const limiterVerdict: Verdict = limit.limited
    ? refusedOtherwise && tally.limited === 0
      ? {
          name: 'a caller over the limit is answered 429',
          rules: ['RATE-01'],
          ok: false,
          detail: `refused with HTTP ${tally.refusalStatuses.join(', ')} instead of 429`,
          ...(tally.sample && tally.sample.status !== 429 ? { sample: tally.sample } : {}),
          rule: 'RATE-01',
          // A 5xx refusal is a server error, never "inconclusive".
          kind: tally.refusalStatuses.some((status) => status >= 500) ? 'server-error' : 'status',
        }
      : {
          name: 'a caller over the limit is answered 429',
          rules: ['RATE-01'],
          ok: true,
          detail: `${tally.limited} × 429`,
        }
    : notLimitedFails
      ? {
          name: 'a caller over the limit is answered 429',
          rules: ['RATE-01'],
          ok: false,
          detail: `no refusal: ${[...declaredOff, ...expectedOff].join('; ')}`,
        }
      : {
          name: 'a caller over the limit is answered 429',
          rules: ['RATE-01'],
          ok: null,
          detail: slow
            ? `${limit.method}, but ${slow}`
            : `${limit.method}: raise RATE_MAX_BURST or RATE_BUDGET, or use a larger --profile`,
        };
  const verdicts: Verdict[] = [
    limiterVerdict,
    {
      name: 'every 429 carries the error body and Retry-After',
      rules: ['RATE-02', 'RATE-03'],
      ok: tally.limited === 0 ? null : tally.malformed429 === 0,
      detail:
        tally.limited === 0
          ? 'no 429 seen'
          : tally.malformed429 === 0
            ? `${tally.limited} checked`
            : `${tally.malformed429} of ${tally.limited} malformed: ${tally.malformedReasons.join('; ')}`,
      ...(tally.malformed429 > 0 && tally.sample?.status === 429 ? { sample: tally.sample } : {}),
    },
    {
      name: 'a request after waiting Retry-After succeeds',
      rules: ['RATE-04'],
      ok: tally.afterRetryAfter.refused > 0 ? false : tally.afterRetryAfter.honoured > 0 ? true : null,
      detail:
        tally.afterRetryAfter.refused > 0
          ? `${tally.afterRetryAfter.refused} request(s) sent after the announced wait were refused`
          : tally.afterRetryAfter.honoured > 0
            ? `the allowance was back within the announced wait ${tally.afterRetryAfter.honoured} time(s)`
            : 'no refusal with a Retry-After was followed by a refill',
    },
    {
      name: 'no 5xx while probing',
      rules: ['GNR-01'],
      ok: tally.serverErrors === 0,
      detail: `${tally.serverErrors} answers 5xx or none`,
    },
    {
      name: 'what the headers declare matches what the limiter does',
      ok: limit.declared.quota === undefined || limit.cannotTell || slow ? null : declaredOff.length === 0,
      detail:
        limit.declared.quota === undefined
          ? 'no quota declared'
          : limit.cannotTell || slow
            ? `not judged: ${limit.cannotTell ?? slow}`
            : declaredOff.length
              ? declaredOff.join('; ')
              : `within ${AGREEMENT * 100} %`,
    },
  ];
  if (
    Object.keys(expectations).length ||
    ((limit.cannotTell || slow) && Object.values(plan.expected).some((v) => v !== undefined))
  ) {
    verdicts.push({
      name: 'the limit is what RATE_EXPECTED_* says',
      ok: limit.cannotTell || slow ? null : expectedOff.length === 0,
      detail:
        limit.cannotTell || slow
          ? `not judged: ${limit.cannotTell ?? slow}`
          : expectedOff.length
            ? expectedOff.join('; ')
            : `within ${AGREEMENT * 100} %`,
    });
  }
  if (result.stoppedBecause) {
    verdicts.push({ name: 'the probed route answers', ok: false, detail: result.stoppedBecause });
  }

  const failed = verdicts.some((v) => v.ok === false);
  const unpinned = limit.missing.length ? `not pinned down: ${limit.missing.join('; ')}` : undefined;
  const inconclusive = failed
    ? undefined
    : limit.cannotTell
      ? `cannot tell the limiter's shape: ${limit.cannotTell}`
      : limiterVerdict.ok === null
        ? `the limiter was never met: ${slow ? `${limit.method}, but ${slow}` : limit.method}`
        : (unpinned ?? undefined);
  const notes = [
    ...(unpinned ? [unpinned] : []),
    "Judged by what the target does (answers and timing), not by any assumption about it: the burst is counted from a refill, the window is the time between two refills, a token bucket's rate is counted from paced requests.",
  ];
  return {
    figures,
    verdicts,
    notes,
    analysis: {
      limit: {
        burst: limit.burst,
        ratePerSecond: limit.ratePerSecond,
        limitPerWindow: limit.limitPerWindow,
        windowSeconds: limit.windowSeconds,
        method: limit.method,
        declared: limit.declared,
        shape: limit.shape,
        limited: limit.limited,
        missing: limit.missing,
        ...(limit.cannotTell ? { cannotTell: limit.cannotTell } : {}),
        ...(limit.timing ? { timing: limit.timing } : {}),
      },
      tally,
      findings: declaredOff,
      ...(Object.keys(expectations).length ? { expected: expectations } : {}),
      probeMs: result.durationMs,
      // The limiter drawn (load/lib/summary/limiter-chart.ts); absent from reports of older runs.
      ...(result.timeline ? { timeline: result.timeline } : {}),
    },
    ...(inconclusive ? { inconclusive } : {}),
    failed,
  };
}
