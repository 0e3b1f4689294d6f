// What the flag-cache probe reports: change times, the shortest gap between renewals, violations
// and 429s, as figures and verdicts. Pure (k6 summary data in, report parts out).
import { type FlagObservation, PAIR_SPREAD_FRACTION } from '../../common/flag-window.ts';
import { type FlagPlan, pollRate } from './flag-plan.ts';
import type { Sample } from './samples.ts';
import type { K6Metric } from './summary/k6-data.ts';
import type { Figure, Verdict } from './summary/report.ts';

type Metrics = Readonly<Record<string, K6Metric | undefined>>;

const count = (metrics: Metrics, name: string): number => metrics[name]?.values.count ?? 0;

/** A failed finding's sample, when it failed and a poller kept one. */
const sampleIf = (failed: boolean, sample: Sample | undefined) => (failed && sample ? { sample } : {});

/** Seconds (of the server's clock) at which pollers saw the data change, with how many saw it. */
export function changeTimes(metrics: Metrics): { second: number; pollers: number }[] {
  const times: { second: number; pollers: number }[] = [];
  for (const [name, metric] of Object.entries(metrics)) {
    const match = /^flag_cache_changes\{sec:(\d+)\}$/.exec(name);
    const seen = metric?.values.count ?? 0;
    if (match && seen > 0) times.push({ second: Number(match[1]), pollers: seen });
  }
  return times.sort((a, b) => a.second - b.second);
}

/**
 * What a poller's observation adds to the run's evidence: a pair of changes that tests the window
 * (sharply placed, or a violation, proved however wide), one too blurred to count, or nothing.
 */
export function pairEvidence(seen: FlagObservation): 'tested' | 'blurred' | undefined {
  if (!seen.change || !seen.pair) return undefined;
  return seen.pair.tested || seen.violation ? 'tested' : 'blurred';
}

/**
 * `samples`: the pollers' evidence by kind (load/lib/samples.ts): `violation`, the answer that
 * changed too soon; `rate-limited`, a 429. Each failed finding shows its own.
 */
export function flagCacheFindings(
  metrics: Metrics,
  plan: FlagPlan,
  samples: ReadonlyMap<string, Sample> = new Map(),
): {
  figures: Figure[];
  verdicts: Verdict[];
  notes: string[];
  analysis: Record<string, unknown>;
  inconclusive?: string;
} {
  const violations = count(metrics, 'flag_cache_violations');
  const limited = count(metrics, 'flag_cache_rate_limited');
  const interval = metrics.flag_cache_change_interval_s?.values;
  const times = changeTimes(metrics);
  const blurred = count(metrics, 'flag_cache_blurred_pairs');
  const timing = {
    pollLateMaxMs: Math.round(metrics.flag_cache_poll_late_ms?.values.max ?? 0),
    pollSpanMaxMs: Math.round(metrics.flag_cache_poll_span_ms?.values.max ?? 0),
    changeSpreadMaxSeconds: round1(metrics.flag_cache_change_spread_s?.values.max ?? 0),
    blurredPairs: blurred,
  };
  const noise = `polls up to ${timing.pollLateMaxMs} ms late, each spanning up to ${timing.pollSpanMaxMs} ms of the cache's clock, changes placed to within ${timing.changeSpreadMaxSeconds} s`;
  const clock =
    plan.lapseSeconds > 0
      ? `the reference server's clock moved ${plan.lapseSeconds} s every ${plan.tickSeconds} s`
      : 'real time';
  const figures: Figure[] = [
    {
      label: 'polling',
      value: `${plan.vus} pollers every ${plan.pollSeconds} s (${pollRate(plan).toFixed(2)} req/s) for ${plan.durationSeconds} s, ${clock}`,
    },
    {
      label: 'polls',
      value: `${count(metrics, 'flag_cache_polls')} (${count(metrics, 'flag_cache_errors')} errors)`,
    },
    {
      label: 'changes seen at (s)',
      value: times.length ? times.map((t) => `${t.second} (${t.pollers})`).join(', ') : 'none',
    },
    {
      label: 'shortest gap between two changes',
      value: interval?.count
        ? `${(interval.min ?? 0).toFixed(1)} s`
        : 'not measured (no poller saw two changes)',
    },
    { label: 'timing', value: noise },
    { label: '429 answers', value: String(limited) },
    { label: 'token renewals', value: String(count(metrics, 'flag_cache_token_renewals')) },
  ];
  const decided = violations > 0 || (interval?.count ?? 0) > 0;
  // Pairs of changes were seen but none placed sharply enough: the probe's own timing was too noisy
  // to tell a cache of the window from one of half of it (k6 short of CPU: late polls, slow answers).
  const tooNoisy =
    !decided && blurred > 0
      ? `the probe's timing was too noisy to tell: ${blurred} pair(s) of changes were seen, none placed to within ${PAIR_SPREAD_FRACTION * 100} % of the ${plan.windowSeconds} s window together (${noise}; k6 short of CPU or a slow network blurs the timing)`
      : undefined;
  const verdicts: Verdict[] = [
    {
      name: `flag data does not change within ${plan.windowSeconds} s of a renewal`,
      rules: ['FLG-02'],
      ok: decided ? violations === 0 : null,
      detail: decided
        ? `${violations} violation(s)`
        : (tooNoisy ??
          'no poller saw two renewals, so no window was put to the test: run for longer, or against the reference server (it switches flags)'),
      ...sampleIf(violations > 0, samples.get('violation')),
    },
    {
      name: 'polling stays below the rate limiter',
      ok: limited === 0,
      detail:
        limited === 0
          ? 'no 429'
          : `${limited} polls answered 429: lower FLAG_VUS or raise FLAG_POLL_INTERVAL`,
      ...sampleIf(limited > 0, samples.get('rate-limited')),
    },
  ];
  const notes = plan.toggleFeatures.length
    ? [
        `The features ${plan.toggleFeatures.join(', ')} were switched every ${plan.tickSeconds} s so renewals bring new data.`,
      ]
    : [];
  return {
    figures,
    verdicts,
    notes,
    analysis: { changeTimes: times, violations, rateLimited: limited, timing },
    // A run that saw no renewal proved nothing: it must not read as passed.
    ...(decided
      ? {}
      : {
          inconclusive:
            tooNoisy ??
            `no poller saw two renewals in ${plan.durationSeconds} s, so no ${plan.windowSeconds} s window was put to the test`,
        }),
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;
