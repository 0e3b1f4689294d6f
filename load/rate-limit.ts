// Rate-limit probe: a stepped arrival rate over ONE credential finds where the limiter starts
// answering 429, checks every 429 (error body, Retry-After), then waits one Retry-After out and
// checks the next request succeeds. Fails the run on any 5xx or malformed 429.
//   k6 run load/rate-limit.ts   (or npm run load:rate-limit; variables in docs/load.md)
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { apiUrl, readLoadConfig, requireCredentials, secretValues } from './lib/config.ts';
import { k6Duration } from './lib/env.ts';
import { errorBodyProblems } from './lib/error-body.ts';
import { inInit } from './lib/init.ts';
import { apiKeyHeaders, bearerHeaders, bodyText, get, issueToken, type Response } from './lib/k6/http.ts';
import { bucketsFromSummary, detectLimit } from './lib/limit-detection.ts';
import { rateLimitFindings } from './lib/rate-limit-findings.ts';
import { arrivalUnit, offeredRateAt, rampSeconds, rampStages, readRatePlan } from './lib/rate-plan.ts';
import { parseRetryAfter } from './lib/retry-after.ts';
import type { K6SummaryData } from './lib/summary/k6-data.ts';
import { summaryOutputs } from './lib/summary/outputs.ts';
import { buildReport } from './lib/summary/report.ts';

const { config, plan } = inInit(() => {
  const config = readLoadConfig(__ENV);
  const plan = readRatePlan(__ENV);
  requireCredentials(config, plan.auth);
  return { config, plan };
});

const NAMES = {
  accepted: 'rate_limit_accepted',
  limited: 'rate_limit_limited',
} as const;
const accepted = new Counter(NAMES.accepted);
const limited = new Counter(NAMES.limited);
const malformed429 = new Counter('rate_limit_malformed_429');
const serverErrors = new Counter('rate_limit_5xx');
const otherStatuses = new Counter('rate_limit_other_status');
/** The offered arrival rate (req/s) whenever a 429 came back: its min is where 429s begin. */
const onsetRate = new Trend('rate_limit_onset_rps');
const retryAfter = new Trend('rate_limit_retry_after_s');
const recovered = new Counter('rate_limit_recovery_ok');
const recoveryFailures = new Counter('rate_limit_recovery_failures');
const recoveryUndecided = new Counter('rate_limit_recovery_undecided');

const RAMP_SECONDS = rampSeconds(plan);
/** Answers can arrive after the ramp's last second (graceful stop). */
const BUCKET_SECONDS = Math.ceil(RAMP_SECONDS) + 10;

function perSecondThresholds(): Record<string, string[]> {
  // A threshold per second makes k6 report each second's sub-metric to handleSummary, which is
  // how the per-second counts reach the analysis (VUs share no memory). They always hold.
  const thresholds: Record<string, string[]> = {};
  for (let sec = 0; sec < BUCKET_SECONDS; sec++) {
    thresholds[`${NAMES.accepted}{sec:${sec}}`] = ['count>=0'];
    thresholds[`${NAMES.limited}{sec:${sec}}`] = ['count>=0'];
  }
  return thresholds;
}

const unit = arrivalUnit(plan);
const firstRate = plan.rates[0] ?? 1;
const ceiling = plan.rates[plan.rates.length - 1] ?? firstRate;

export const options: Options = {
  scenarios: {
    ramp: {
      executor: 'ramping-arrival-rate',
      exec: 'probe',
      startRate: Math.round(firstRate * unit.scale),
      timeUnit: unit.timeUnit,
      preAllocatedVUs: Math.min(plan.maxVus, Math.max(2, Math.ceil(ceiling / 2))),
      maxVUs: plan.maxVus,
      stages: rampStages(plan).map((s) => ({ ...s, target: Math.round(s.target * unit.scale) })),
      gracefulStop: '5s',
    },
    recovery: {
      executor: 'per-vu-iterations',
      exec: 'recover',
      vus: 1,
      iterations: 1,
      startTime: k6Duration(RAMP_SECONDS + 1),
      maxDuration: k6Duration(plan.maxRetryAfterSeconds + 60),
    },
  },
  thresholds: {
    rate_limit_5xx: ['count==0'],
    rate_limit_malformed_429: ['count==0'],
    rate_limit_recovery_failures: ['count==0'],
    ...perSecondThresholds(),
  },
  summaryTrendStats: ['min', 'avg', 'med', 'p(95)', 'max', 'count'],
};

// 429 is the answer under study, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

export function setup(): { token?: string } {
  // One credential for every VU: a token per VU would be a credential per VU.
  return plan.auth === 'bearer' ? { token: issueToken(config) } : {};
}

function send(data: { token?: string }): Response {
  const headers = plan.auth === 'bearer' ? bearerHeaders(data.token ?? '') : apiKeyHeaders(config);
  return get(config, apiUrl(config, plan.path), headers, { name: `GET /${plan.path}`, endpoint: 'probe' });
}

/** Checks one 429; true when it carries the error body and a usable Retry-After. */
function inspect429(res: Response): boolean {
  const ra = parseRetryAfter(res.headers['Retry-After'], Date.now());
  if (ra !== undefined) retryAfter.add(ra);
  const ok = check(res, {
    '429 carries the error body (code, message, status_code 429)': (r) =>
      errorBodyProblems(bodyText(r), 429).length === 0,
    '429 carries a Retry-After (seconds or HTTP date)': () => ra !== undefined,
  });
  if (!ok) malformed429.add(1);
  return ok;
}

function classify(res: Response, sentAtMs: number): void {
  const sec = String(Math.floor(sentAtMs / 1000));
  if (res.status === 429) {
    limited.add(1, { sec });
    onsetRate.add(offeredRateAt(plan, sentAtMs / 1000));
    inspect429(res);
  } else if (res.status >= 200 && res.status < 400) {
    accepted.add(1, { sec });
  } else if (res.status >= 500 || res.status === 0) {
    // 0: no answer at all (timeout, reset) also counts as the server failing under load.
    serverErrors.add(1, { status: String(res.status) });
  } else {
    otherStatuses.add(1, { status: String(res.status) });
  }
  check(res, { 'answered 2xx or 429': (r) => (r.status >= 200 && r.status < 400) || r.status === 429 });
}

export function probe(data: { token?: string }): void {
  const sentAt = exec.instance.currentTestRunDuration;
  classify(send(data), sentAt);
}

export function recover(data: { token?: string }): void {
  let res = send(data);
  for (let sent = 1; res.status !== 429 && sent < plan.recoveryBudget; sent++) res = send(data);
  if (res.status !== 429) {
    recoveryUndecided.add(1);
    return;
  }
  inspect429(res);
  const wait = parseRetryAfter(res.headers['Retry-After'], Date.now());
  if (wait === undefined || wait > plan.maxRetryAfterSeconds) {
    // Without a usable Retry-After there is nothing to wait out (already counted as malformed).
    recoveryUndecided.add(1);
    return;
  }
  sleep(wait);
  const after = send(data);
  const ok = check(after, {
    'a request after waiting Retry-After succeeds': (r) => r.status >= 200 && r.status < 400,
  });
  if (ok) recovered.add(1);
  else recoveryFailures.add(1, { status: String(after.status) });
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  const estimate = detectLimit(bucketsFromSummary(data.metrics, NAMES), {
    ...(plan.windowSeconds !== undefined ? { windowSeconds: plan.windowSeconds } : {}),
  });
  const findings = rateLimitFindings(estimate, data.metrics, plan);
  const report = buildReport(data, {
    script: 'rate-limit',
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl },
    finishedAt: new Date(),
    ...findings,
  });
  return summaryOutputs(report, config.reportDir, secretValues(config));
}
