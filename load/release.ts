// The pre-release load profile: virtual users each with their own bearer token (renewed on
// SESSION_EXPIRED), reading customer pages, their profile, and their feature flags (kept 60 s,
// as the spec advises), plus the pet list on staging and local only. LOAD_PROFILE picks smoke,
// load, stress or soak; thresholds hold p95 latency and the error rate users saw, overall and per
// endpoint. A SESSION_EXPIRED answer that starts a renewal is the spec's expected behaviour: it is
// counted in release_session_expired, and the user's outcome is the repeated request's answer.
//   k6 run load/release.ts   (or npm run load:release; variables in docs/load.md)
import { check, sleep } from 'k6';
import { Counter, Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import { retryAfterSeconds } from '../common/retry-after.ts';
import { BOUNDED_OPTIONS, BOUNDED_THRESHOLDS } from './lib/bounded.ts';
import { ReadGate, unreadThresholds } from './lib/bounded-read.ts';
import {
  apiUrl,
  petstoreAllowed,
  petstoreUrl,
  readLoadConfig,
  requireCredentials,
  secretValues,
} from './lib/config.ts';
import { inInit } from './lib/init.ts';
import { bearerHeaders, get, issueToken, type Response, readBounded } from './lib/k6/http.ts';
import { inIteration } from './lib/k6/iteration.ts';
import { recordSample } from './lib/k6/sample.ts';
import { inSetup } from './lib/k6/setup.ts';
import { pageCount } from './lib/pages.ts';
import {
  readReleasePlan,
  releaseThresholdSamples,
  releaseThresholds,
  USER_ERRORS,
  USERS_SCENARIO,
} from './lib/release-plan.ts';
import { sampleOf, samplesOf } from './lib/samples.ts';
import { mayBeSessionExpired, VuSession } from './lib/session.ts';
import { allChecks, type K6SummaryData } from './lib/summary/k6-data.ts';
import { summaryOutputs } from './lib/summary/outputs.ts';
import { buildReport } from './lib/summary/report.ts';

const { config, plan } = inInit(() => {
  const config = readLoadConfig(__ENV);
  requireCredentials(config, 'bearer');
  return { config, plan: readReleasePlan(__ENV, petstoreAllowed(config), config.profile) };
});

const renewals = new Counter('release_token_renewals');
/** Answers that asked for a new token (SESSION_EXPIRED): expected, not failures. */
const sessionExpired = new Counter('release_session_expired');
/** What a user saw fail after renewing: the error thresholds judge this. */
const userErrors = new Rate(USER_ERRORS);
/**
 * The same failures counted (0 or 1 on every request, so the series exists in every run): the
 * dashboard draws a Rate as a percent axis that a clean run's zeros stretch to 0-10000 %, a count
 * on a counter axis.
 */
const userErrorCount = new Counter('release_user_errors');
/** One request's outcome for a user: the share the thresholds judge, and the count the dashboard draws. */
function userSaw(failed: boolean, endpoint: string): void {
  userErrors.add(failed, { endpoint });
  userErrorCount.add(failed ? 1 : 0, { endpoint });
}

/**
 * The first failed and the first slow answer of each endpoint (per user), kept as the evidence of the
 * thresholds they count in (load/lib/samples.ts); secrets, the user's token included, removed.
 */
function keepEvidence(response: Response, body: string | null, endpoint: string, request: string): void {
  // Only when a sample is kept: the user's token is there (its requests went out with it).
  const secrets = () => [...secretValues(config), session.token()];
  if (response.status < 200 || response.status >= 300) {
    recordSample(
      `errors:${endpoint}`,
      () => sampleOf(response, body, `a user saw HTTP ${response.status} (after renewals)`, request),
      secrets,
    );
  }
  const ms = response.timings.duration;
  if (ms >= plan.p95Ms) {
    recordSample(
      `slow:${endpoint}`,
      () =>
        sampleOf(
          response,
          body,
          `answered in ${ms.toFixed(1)} ms (p(95) must stay under ${plan.p95Ms} ms)`,
          request,
        ),
      secrets,
    );
  }
}
const rateLimited = new Counter('release_rate_limited');

export const options: Options = {
  ...BOUNDED_OPTIONS,
  scenarios: { [USERS_SCENARIO]: plan.scenario },
  thresholds: {
    ...releaseThresholds(plan),
    ...BOUNDED_THRESHOLDS,
    ...unreadThresholds(['token', 'renewal', 'page-count']),
  },
  summaryTrendStats: ['min', 'avg', 'med', 'p(90)', 'p(95)', 'max', 'count'],
};

/** What setup learnt once for every user: how many customer pages there are (undefined: page 1 only). */
export interface ReleaseSetup {
  totalPages: number | undefined;
}

export function setup(): ReleaseSetup {
  // Fail fast, with one line, when the credentials are refused. The page count is read here, once:
  // the users' own answers are never read whole (bodies are discarded, load/lib/bounded.ts).
  return inSetup(() => {
    const token = issueToken(config);
    const url = apiUrl(config, 'v1/customers', { page: 1 });
    const tags = { name: 'GET /v1/customers?page=1 (page count)', endpoint: 'page-count' };
    // k6 reads a kept body whole, with no cap: page 1 is read only when its answer, asked first
    // with the body discarded, declares at most 1 MiB with no content coding.
    const first = readBounded(
      config,
      'GET',
      url,
      null,
      { headers: bearerHeaders(token), tags },
      new ReadGate(),
      (r) => (r.status === 200 ? 'page-count' : undefined),
    );
    return { totalPages: first.status === 200 ? pageCount(first.body) : undefined };
  });
}

// Per VU: its token and its flags' age.
const session = new VuSession(() => issueToken(config));
let flagsFetchedAt = Number.NEGATIVE_INFINITY;

/** A bearer GET with renewal; a 429 makes this user wait as a well-behaved client would. */
function call(url: string, endpoint: string, name: string): Response {
  // A success is never read; an error is read (asked again with its body kept) only when its first
  // answer declared a readable size: SESSION_EXPIRED is known only from the body.
  const { response: read, renewed } = session.send((token) =>
    readBounded(
      config,
      'GET',
      url,
      null,
      { headers: bearerHeaders(token), tags: { name, endpoint } },
      new ReadGate(),
      (r) => (mayBeSessionExpired(r.status) ? 'renewal' : undefined),
    ),
  );
  const response = read.response;
  // 0 when nothing happened: the dashboard draws a clean run's 0, not "no data".
  renewals.add(renewed ? 1 : 0);
  if (renewed) sessionExpired.add(1, { endpoint });
  rateLimited.add(response.status === 429 ? 1 : 0, { endpoint });
  userSaw(response.status < 200 || response.status >= 300, endpoint);
  keepEvidence(response, read.body, endpoint, name);
  if (response.status === 429) {
    sleep(Math.min(30, retryAfterSeconds(response.headers['Retry-After'], Date.now()) ?? 1));
  }
  return response;
}

export function visit(data: ReleaseSetup): void {
  inIteration(() => iteration(data?.totalPages));
}

function iteration(totalPages: number | undefined): void {
  if (Date.now() - flagsFetchedAt >= plan.flagsTtlSeconds * 1000) {
    const flags = call(apiUrl(config, 'v1/feature-flags'), 'feature-flags', 'GET /v1/feature-flags');
    if (check(flags, { 'feature flags 200': (r) => r.status === 200 })) flagsFetchedAt = Date.now();
  }

  const me = call(apiUrl(config, 'v1/user/me'), 'user-me', 'GET /v1/user/me');
  check(me, { 'user/me 200': (r) => r.status === 200 });

  const page = totalPages ? 1 + Math.floor(Math.random() * totalPages) : 1;
  const customers = call(apiUrl(config, 'v1/customers', { page }), 'customers', 'GET /v1/customers?page=N');
  check(customers, { 'customers page 200': (r) => r.status === 200 });

  if (plan.pets) {
    // The demo interface shows no authentication; never sent to production (petstoreAllowed).
    const pets = get(
      config,
      petstoreUrl(config, 'pets', { limit: 20 }),
      {},
      { name: 'GET /pets', endpoint: 'pets' },
    );
    userSaw(!check(pets, { 'pets 200': (r) => r.status === 200 }), 'pets');
    keepEvidence(pets, null, 'pets', 'GET /pets');
  }

  sleep(plan.thinkSeconds * (0.5 + Math.random()));
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  const count = (name: string) => data.metrics[name]?.values.count ?? 0;
  const report = buildReport(data, {
    script: 'release',
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl },
    finishedAt: new Date(),
    figures: [
      {
        label: 'profile',
        value: `${plan.profile}: ${plan.vus} users at the peak for ${plan.holdSeconds} s (${plan.scenario.executor})`,
      },
      {
        label: 'thresholds',
        value: `p(95) < ${plan.p95Ms} ms, errors users saw (after renewals) < ${plan.maxErrorRate * 100} %`,
      },
      {
        label: 'pets',
        value: plan.pets ? 'listed' : 'not listed (production, no PETSTORE_BASE_URL or RELEASE_PETS=off)',
      },
      {
        label: 'token renewals',
        // One renewal per SESSION_EXPIRED answer: the two counters move together. That answer is
        // counted (per endpoint, in release_session_expired) as expected behaviour, not as an error.
        value: `${count('release_token_renewals')}, each after a SESSION_EXPIRED answer (expected behaviour, not counted as an error users saw)`,
      },
      {
        label: 'errors users saw',
        value: `${data.metrics[USER_ERRORS]?.values.passes ?? 0} of ${(data.metrics[USER_ERRORS]?.values.passes ?? 0) + (data.metrics[USER_ERRORS]?.values.fails ?? 0)} requests, after renewals`,
      },
      { label: '429 answers', value: String(count('release_rate_limited')) },
    ],
    thresholdSamples: releaseThresholdSamples(samplesOf(allChecks(data.root_group))),
  });
  return summaryOutputs(report, config.reportDir, secretValues(config));
}
