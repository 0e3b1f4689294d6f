// What the rate-limit probe reports: the limit estimate and the counters, as figures and verdicts.
// Pure (k6 summary data in, report parts out).
import type { LimitEstimate } from './limit-detection.ts';
import type { RatePlan } from './rate-plan.ts';
import type { K6Metric } from './summary/k6-data.ts';
import type { Figure, Verdict } from './summary/report.ts';

type Metrics = Readonly<Record<string, K6Metric | undefined>>;

const count = (metrics: Metrics, name: string): number => metrics[name]?.values.count ?? 0;

export function describeLimit(estimate: LimitEstimate): string {
  if (!estimate.limited || estimate.limitPerWindow === undefined) return 'not reached';
  const where =
    estimate.method === 'full-window'
      ? 'counted over one whole window between two resets'
      : estimate.method === 'reset-aligned'
        ? 'counted over the window that ended at the first reset'
        : 'counted up to the first 429 (no whole window seen)';
  const window =
    estimate.windowSeconds !== undefined
      ? ` per ${estimate.windowSeconds} s window (${estimate.windowSource}), about ${estimate.ratePerSecond} req/s`
      : ' per window (window length not measured: set RATE_WINDOW or ramp for longer)';
  return `${estimate.limitPerWindow} requests${window}, ${where}`;
}

export function rateLimitFindings(
  estimate: LimitEstimate,
  metrics: Metrics,
  plan: RatePlan,
): { figures: Figure[]; verdicts: Verdict[]; notes: string[]; analysis: Record<string, unknown> } {
  const limitedCount = count(metrics, 'rate_limit_limited');
  const malformed = count(metrics, 'rate_limit_malformed_429');
  const fiveHundreds = count(metrics, 'rate_limit_5xx');
  const onset = metrics.rate_limit_onset_rps?.values.min;
  const ra = metrics.rate_limit_retry_after_s?.values;
  const ceiling = plan.rates[plan.rates.length - 1];

  const figures: Figure[] = [
    { label: 'observed limit', value: describeLimit(estimate) },
    {
      label: '429s begin',
      value:
        estimate.limited && estimate.firstLimitedSecond !== undefined
          ? `${estimate.firstLimitedSecond} s into the ramp, at ${onset ?? '?'} req/s offered (${estimate.onsetRate} requests sent in that second)`
          : `no 429 up to ${ceiling} req/s`,
    },
    {
      label: 'ramp',
      value: `${plan.rates.join(' → ')} req/s, ${plan.stepSeconds} s per step, GET /${plan.path} (${plan.auth})`,
    },
    {
      label: 'answers',
      value: `${count(metrics, 'rate_limit_accepted')} accepted, ${limitedCount} × 429, ${fiveHundreds} × 5xx or no answer, ${count(metrics, 'rate_limit_other_status')} other`,
    },
  ];
  if (ra?.count) figures.push({ label: 'Retry-After', value: `${ra.min} s to ${ra.max} s` });
  const deviation = limitDeviation(estimate, plan.expectedLimit);
  if (plan.expectedLimit !== undefined) {
    figures.push({
      label: 'expected limit',
      value: `${plan.expectedLimit} requests per window (RATE_EXPECTED_LIMIT)${deviation === undefined ? '' : `: observed ${deviation >= 0 ? '+' : ''}${(deviation * 100).toFixed(1)} %`}`,
    });
  }

  const recoveredOk = count(metrics, 'rate_limit_recovery_ok');
  const recoveryFailed = count(metrics, 'rate_limit_recovery_failures');
  const verdicts: Verdict[] = [
    {
      name: 'the limiter answers 429 within the ramp',
      ok: limitedCount > 0 ? true : null,
      detail:
        limitedCount > 0 ? describeLimit(estimate) : `no 429 up to ${ceiling} req/s: raise RATE_CEILING`,
    },
    {
      name: 'every 429 carries the error body and Retry-After',
      ok: limitedCount === 0 ? null : malformed === 0,
      detail: limitedCount === 0 ? 'no 429 seen' : `${malformed} malformed 429 answer(s)`,
    },
    {
      name: 'a request after waiting Retry-After succeeds',
      ok: recoveryFailed > 0 ? false : recoveredOk > 0 ? true : null,
      detail:
        recoveryFailed > 0
          ? 'the request after the wait was refused'
          : recoveredOk > 0
            ? 'succeeded'
            : `not tried: no 429 within ${plan.recoveryBudget} requests after the ramp, or no usable Retry-After up to ${plan.maxRetryAfterSeconds} s`,
    },
    { name: 'no 5xx under load', ok: fiveHundreds === 0, detail: `${fiveHundreds} answers 5xx or none` },
  ];
  const notes =
    estimate.method === 'before-first-429'
      ? [
          'No whole window between two resets was seen; the limit is counted up to the first 429 and is an upper bound if the window began before the probe.',
        ]
      : [];
  return {
    figures,
    verdicts,
    notes,
    analysis: {
      limit: estimate,
      ...(plan.expectedLimit !== undefined ? { expectedLimit: plan.expectedLimit } : {}),
      ...(deviation !== undefined ? { deviation } : {}),
    },
  };
}

/** (observed - expected) / expected, or undefined when either is unknown. */
export function limitDeviation(estimate: LimitEstimate, expected: number | undefined): number | undefined {
  if (expected === undefined || estimate.limitPerWindow === undefined) return undefined;
  return Math.round(((estimate.limitPerWindow - expected) / expected) * 10_000) / 10_000;
}
