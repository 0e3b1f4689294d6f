// What k6's web dashboard charts for each script (its XK6_DASHBOARD_CONFIG, which replaces the
// dashboard's own layout): the script's own metrics first, under the names a release reviewer
// uses (429 answers, token renewals, errors users saw, latency per endpoint), then k6's request
// rate, durations and failures, then the summary tables. Series are the dashboard's queries
// (JMESPath over its metric vectors): `name[?!tags && rate]` is the whole metric,
// `name[?tags.endpoint == 'x' && p95]` its sub-metric for one tag value (the launcher asks for
// sub-metrics by group, endpoint and status: K6_WEB_DASHBOARD_TAGS).
// The dashboard gives a panel's legends to the series it FOUND, in order: a series with no data
// (no 429 in the run) hands its legend to the next one. So a panel's series are ones every run
// has, except at most one, which comes last; the others get a panel of their own.
// Units: the dashboard takes a series' unit from its metric's type and aggregate, nothing else (a
// counter's rate is /s, its count a number, a Rate a percent). So events that come now and then
// (violations, renewals, 429s, errors users saw) are drawn as counts per point (the dashboard counts
// each period, a second: a renewal reads 2 at its second and 0 after, seen rendered), not as rates in 1/s
// bands, and no chart draws a Rate: a clean run's zeros stretch a percent axis to 0-10000 %. The
// scripts add 0 to those counters on every request, so a clean run draws 0, not "no data".
import type { LoadScriptName } from './scripts.ts';

export interface DashboardSeries {
  query: string;
  legend?: string;
}

export interface DashboardPanel {
  id: string;
  title: string;
  kind: 'chart' | 'stat' | 'summary';
  summary?: string;
  fullWidth?: boolean;
  series: DashboardSeries[];
}

export interface DashboardTab {
  id: string;
  title: string;
  summary: string;
  sections: { id: string; title?: string; panels: DashboardPanel[] }[];
}

export interface DashboardConfig {
  title: string;
  tabs: DashboardTab[];
}

/** The tags the dashboard keeps sub-metrics for (one tag each: http_reqs{status:429}). */
export const DASHBOARD_TAGS = ['group', 'endpoint', 'status'] as const;

/** The endpoint tags of each script's requests (load/*.ts, load/lib/k6/http.ts). */
export const ENDPOINTS: Record<LoadScriptName, readonly string[]> = {
  'rate-limit': ['probe'],
  'flag-cache': ['feature-flags', 'auth-token'],
  // pets last: not listed against production or with RELEASE_PETS=off.
  release: ['customers', 'user-me', 'feature-flags', 'auth-token', 'pets'],
};

const whole = (metric: string, aggregate: string, legend?: string): DashboardSeries => ({
  query: `${metric}[?!tags && ${aggregate}]`,
  ...(legend ? { legend } : {}),
});
const tagged = (
  metric: string,
  tag: string,
  value: string,
  aggregate: string,
  legend: string,
): DashboardSeries => ({
  query: `${metric}[?tags.${tag} == '${value}' && ${aggregate}]`,
  legend,
});

/** 429 answers over time, from k6's own request count by status: every script has them. */
export const LIMITED_SERIES = tagged('http_reqs', 'status', '429', 'rate', '429 answers /s');

function chart(
  id: string,
  title: string,
  series: DashboardSeries[],
  summary: string,
  fullWidth = false,
): DashboardPanel {
  return { id, title, kind: 'chart', summary, series, ...(fullWidth ? { fullWidth: true } : {}) };
}

function scriptTab(script: LoadScriptName): DashboardTab {
  const latency = chart(
    'latency-per-endpoint',
    'Latency p(95) per endpoint',
    ENDPOINTS[script].map((e) => tagged('http_req_duration', 'endpoint', e, 'p95', e)),
    "95th percentile of k6's request duration, per endpoint tag.",
    // Full width: it ends each script's tab, where half a row stood empty beside it (seen rendered).
    true,
  );
  if (script === 'rate-limit') {
    return {
      id: 'limiter',
      title: 'Rate limiter',
      summary:
        'The probe bursts until refused, waits for the refill and bursts again: accepted answers and 429s per second. The exact picture (every answer, the RateLimit remaining value) is k6-rate-limit.limiter.svg.',
      sections: [
        {
          id: 'limiter.answers',
          panels: [
            chart(
              'limiter-answers',
              'Requests and 429 answers',
              [whole('http_reqs', 'rate', 'requests /s'), LIMITED_SERIES],
              "The probe's requests per second, and those the limiter refused with 429.",
              true,
            ),
            latency,
          ],
        },
      ],
    };
  }
  if (script === 'flag-cache') {
    return {
      id: 'flags',
      title: 'Flag cache',
      summary: 'Pollers read their feature flags; a change seen twice within 60 s is a violation.',
      sections: [
        {
          id: 'flags.polls',
          panels: [
            chart(
              'flag-polls',
              'Polls and flag changes',
              [
                whole('flag_cache_polls', 'rate', 'polls /s'),
                whole('flag_cache_changes', 'rate', 'flag changes /s'),
              ],
              'Polls of GET /v1/feature-flags, and the changes of flag data the pollers saw.',
              true,
            ),
            chart(
              'flag-violations',
              'Violations',
              [whole('flag_cache_violations', 'count', 'violations (count)')],
              'Two changes one poller saw closer than the window allows.',
            ),
            chart(
              'flag-limited',
              '429 answers',
              [whole('flag_cache_rate_limited', 'count', '429 answers (count)')],
              'The polling stays far below the limiter: any 429 is reported.',
            ),
            chart(
              'flag-renewals',
              'Token renewals',
              [whole('flag_cache_token_renewals', 'count', 'token renewals (count)')],
              'Tokens renewed after SESSION_EXPIRED.',
            ),
            chart(
              'flag-errors',
              'Errors',
              [whole('flag_cache_errors', 'count', 'errors (count)')],
              'Polls that failed.',
            ),
            latency,
          ],
        },
      ],
    };
  }
  return {
    id: 'release',
    title: 'Release run',
    summary:
      'What the users of the release profile saw: errors after renewals, token renewals, 429 answers, and latency per endpoint.',
    sections: [
      {
        id: 'release.users',
        panels: [
          chart(
            'release-errors',
            'Errors users saw',
            [
              whole('release_user_errors', 'count', 'errors users saw (count)'),
              ...['customers', 'user-me', 'feature-flags', 'pets'].map((e) =>
                tagged('release_user_errors', 'endpoint', e, 'count', `${e} errors (count)`),
              ),
            ],
            'Requests that failed for a user after any token renewal, counted as the run goes; the error thresholds judge their share (release_errors, in the Summary tab and k6-release.md).',
            true,
          ),
          chart(
            'release-renewals',
            'Token renewals',
            [whole('release_token_renewals', 'count', 'token renewals (count)')],
            'Renewals after SESSION_EXPIRED: expected, never counted as errors.',
          ),
          chart(
            'release-limited',
            '429 answers',
            [whole('release_rate_limited', 'count', '429 answers (count)')],
            'Refusals by the limiter; the user waits Retry-After as a good client would.',
          ),
          latency,
        ],
      },
    ],
  };
}

const K6_TAB: DashboardTab = {
  id: 'k6',
  title: 'Requests',
  summary: "k6's own HTTP metrics over the run.",
  sections: [
    {
      id: 'k6.requests',
      panels: [
        // 429s last (a run may have none): a panel of their own read "no data" in every clean run.
        chart(
          'request-rate',
          'Request rate',
          [whole('http_reqs', 'rate', 'requests /s'), whole('vus', 'value', 'VUs'), LIMITED_SERIES],
          'Requests per second, the virtual users, and the answers with status 429 per second.',
          true,
        ),
        chart(
          'request-duration',
          'Request duration',
          [whole('http_req_duration', '(avg || p90 || p95 || p99)')],
          'Time from sending a request to the end of its answer.',
        ),
        // No chart of k6's http_req_failed: a Rate, whose clean run's zeros drew 0-10000 % (seen
        // rendered, issue 33); the statuses below show what failed, and the Summary tab its share.
        chart(
          'answers-by-status',
          'Answers by status',
          [{ query: 'http_reqs[?tags.status && rate]' }],
          'Requests per second for each HTTP status (failures among them).',
        ),
        chart(
          'transfer',
          'Transfer rate',
          [whole('data_received', 'rate', 'received'), whole('data_sent', 'rate', 'sent')],
          'Bytes per second.',
          true,
        ),
      ],
    },
  ],
};

const SUMMARY_TAB: DashboardTab = {
  id: 'summary',
  title: 'Summary',
  summary: 'Every metric aggregated over the whole run.',
  sections: [
    {
      id: 'summary.all',
      panels: (['trend', 'counter', 'rate', 'gauge'] as const).map((type) => ({
        id: `summary-${type}`,
        title: `${type[0]?.toUpperCase()}${type.slice(1)}s`,
        kind: 'summary' as const,
        series: [{ query: `[?!tags && ${type}]` }],
      })),
    },
  ],
};

export function dashboardConfig(script: LoadScriptName): DashboardConfig {
  return { title: `k6 ${script}`, tabs: [scriptTab(script), K6_TAB, SUMMARY_TAB] };
}
