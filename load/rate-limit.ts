// Rate-limit probe: measures the limiter of ONE credential whatever its shape, as a person would:
// reads the RateLimit/X-RateLimit/Retry-After headers, bursts until refused (the allowance), times
// the refill, bursts again, and tells a window (the allowance comes back whole: its length is the
// time between two refills) from a token bucket (it trickles back: paced requests count the rate,
// a burst after it filled up counts the capacity). Every 429 is checked (error body, Retry-After),
// and no request sent after the announced wait may be refused. Bounded by the profile's budget;
// a run that never met the limiter is inconclusive (exit 3 from the npm script), never passed.
// The probe runs in setup() (one sequence of requests, timed by one clock) and hands its result to
// handleSummary as setup data.
//   k6 run load/rate-limit.ts   (or npm run load:rate-limit; variables in docs/load.md)
import { sleep } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { BOUNDED_OPTIONS, BOUNDED_THRESHOLDS } from './lib/bounded.ts';
import { ReadGate, unreadThresholds } from './lib/bounded-read.ts';
import { apiUrl, readLoadConfig, requireCredentials, secretValues } from './lib/config.ts';
import { k6Duration } from './lib/env.ts';
import { inInit } from './lib/init.ts';
import {
  apiKeyHeaders,
  bearerHeaders,
  issueToken,
  type ReadAnswer,
  type Response,
  readBounded,
  sendBatch,
} from './lib/k6/http.ts';
import { inSetup } from './lib/k6/setup.ts';
import { type ProbeAnswer, type ProbeResult, runLimitProbe } from './lib/limit-probe.ts';
import { rateLimitFindings } from './lib/rate-limit-findings.ts';
import { readRatePlan } from './lib/rate-plan.ts';
import type { K6SummaryData } from './lib/summary/k6-data.ts';
import { summaryOutputs } from './lib/summary/outputs.ts';
import { buildReport } from './lib/summary/report.ts';

const { config, plan } = inInit(() => {
  const config = readLoadConfig(__ENV);
  const plan = readRatePlan(__ENV, config.profile);
  requireCredentials(config, plan.auth);
  return { config, plan };
});

const accepted = new Counter('rate_limit_accepted');
const limited = new Counter('rate_limit_limited');
const serverErrors = new Counter('rate_limit_5xx');
const malformed429 = new Counter('rate_limit_malformed_429');
/** 1 when a verdict failed: k6 then exits 99 like for any crossed threshold. */
const failedVerdicts = new Counter('rate_limit_failed_verdicts');
/** 1 when the probe could not put the rule to the test (exit 99 from k6, 3 from the npm script). */
const inconclusive = new Counter('rate_limit_inconclusive');

export const options: Options = {
  ...BOUNDED_OPTIONS,
  scenarios: {
    // The probe is setup(); a scenario must exist, this one does nothing.
    done: { executor: 'per-vu-iterations', exec: 'done', vus: 1, iterations: 1 },
  },
  setupTimeout: k6Duration(plan.limits.budgetMs / 1000 + 60),
  batchPerHost: plan.limits.batch,
  thresholds: {
    ...BOUNDED_THRESHOLDS,
    ...unreadThresholds(['token', 'limit-poll']),
    rate_limit_5xx: ['count==0'],
    rate_limit_malformed_429: ['count==0'],
    rate_limit_failed_verdicts: ['count==0'],
    rate_limit_inconclusive: ['count==0'],
  },
  summaryTrendStats: ['min', 'avg', 'med', 'p(95)', 'max', 'count'],
};

// 429 is the answer under study, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

/** body: the text when read, undefined when not (a burst's, or a poll too big to read: not judged). */
function answer(
  res: Response,
  body: string | null | undefined,
  sentAtMs: number,
  receivedAtMs: number,
): ProbeAnswer {
  return { status: res.status, headers: res.headers, body, sentAtMs, receivedAtMs };
}

export function setup(): ProbeResult {
  // One credential for the whole probe: the limiter counts per credential.
  const headers =
    plan.auth === 'bearer' ? bearerHeaders(inSetup(() => issueToken(config))) : apiKeyHeaders(config);
  const url = apiUrl(config, plan.path);
  const tags = { name: `GET /${plan.path}`, endpoint: 'probe' };
  // Whether the route's last answer (a poll's or a burst's) declared a readable size: a single poll
  // is then read in its one ask. Polls are never doubled: each one counts against the limiter.
  const gate = new ReadGate();
  const result = runLimitProbe(
    {
      now: () => Date.now(),
      sleep: (ms) => sleep(ms / 1000),
      send: (count) => {
        // A single poll reads its body (a 429's error body is judged) when the route's last answer
        // declared a readable size; a burst's are discarded, or a large answer would be held
        // `count` times at once.
        const sentAt = Date.now();
        if (count === 1) {
          const read: ReadAnswer = readBounded(config, 'GET', url, null, { headers, tags }, gate, (r) =>
            r.status === 429 ? 'limit-poll' : undefined,
          );
          return [answer(read.response, read.body ?? undefined, sentAt, Date.now())];
        }
        const responses = sendBatch(config, url, count, { headers, tags });
        const receivedAt = Date.now();
        for (const r of responses) gate.learn(r.status, r.headers);
        return responses.map((r) => answer(r, undefined, sentAt, receivedAt));
      },
    },
    plan.limits,
  );
  const { tally } = result;
  accepted.add(tally.accepted);
  limited.add(tally.limited);
  serverErrors.add(tally.serverErrors);
  malformed429.add(tally.malformed429);
  const findings = rateLimitFindings(result, plan);
  failedVerdicts.add(findings.failed ? 1 : 0);
  inconclusive.add(findings.inconclusive ? 1 : 0);
  return result;
}

export function done(): void {}

export function handleSummary(data: K6SummaryData & { setup_data?: unknown }): Record<string, string> {
  const result = data.setup_data as ProbeResult | undefined;
  const findings =
    result && typeof result === 'object' && 'limit' in result
      ? rateLimitFindings(result, plan)
      : {
          figures: [],
          verdicts: [],
          notes: [],
          analysis: {},
          inconclusive: 'the probe did not finish (interrupted, or stopped by the error above)',
        };
  const report = buildReport(data, {
    script: 'rate-limit',
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl },
    finishedAt: new Date(),
    ...findings,
  });
  return summaryOutputs(report, config.reportDir, secretValues(config));
}
