// A failed finding shows a sample exchange and a command (issue 33), for the flag-cache probe and the
// release profile as for the rate-limit probe: their virtual users keep the first answer a failure is
// about as a check whose name carries it (load/lib/samples.ts, load/lib/k6/sample.ts); the summary
// reads it back, leaves it out of the checks, and shows it under the failed finding or threshold in
// the Markdown, the JUnit failure and the JSON (valid by schemas/k6-report.schema.json), secrets gone.
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../common/secret-filter.ts';
import { flagCacheFindings } from '../../load/lib/flag-cache-findings.ts';
import { readFlagPlan } from '../../load/lib/flag-plan.ts';
import { readReleasePlan, releaseThresholdSamples, USER_ERRORS } from '../../load/lib/release-plan.ts';
import { cleanSample, type Sample, sampleCheckName, sampleOf, samplesOf } from '../../load/lib/samples.ts';
import { renderJunit } from '../../load/lib/summary/junit.ts';
import type { K6Check, K6Metric, K6SummaryData } from '../../load/lib/summary/k6-data.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { buildReport } from '../../load/lib/summary/report.ts';
import { withRuleTexts } from '../../src/launcher/run-outcome.ts';
import { readBackLoadReport } from '../../src/report/read-back.ts';

const TOKEN = 'eyJ-the-users-own-token-0123456789';
const SECRET = 'client-secret-value-42';

const check = (name: string): K6Check => ({ name, path: `::${name}`, passes: 1, fails: 0 });

function summary(metrics: Record<string, K6Metric>, checks: K6Check[]): K6SummaryData {
  return {
    state: { testRunDurationMs: 20_000 },
    metrics,
    root_group: { name: '', path: '', checks, groups: [] },
  };
}

const target = { name: 'local' as const, apiBaseUrl: 'http://127.0.0.1:1/api/' };
const finishedAt = new Date('2026-11-28T10:00:00Z');
const valid = (r: unknown) => {
  const back = readBackLoadReport(JSON.parse(JSON.stringify(r)));
  return back.ok ? 'valid' : back.reason;
};

describe('a sample travels from a virtual user to the summary as a check', () => {
  it('round-trips, the first of each kind by name; anything else named like one is ignored', () => {
    const a = sampleOf({ status: 503, headers: { 'Content-Type': 'text/plain' } }, 'down', 'a', 'GET /x');
    const b = sampleOf({ status: 500, headers: {} }, null, 'b');
    const found = samplesOf([
      check('feature flags answered 200'),
      check(sampleCheckName('errors:x', a)),
      check(sampleCheckName('errors:x', b)),
      check('sample exchange {not json'),
    ]);
    expect([...found.keys()]).toEqual(['errors:x']);
    // Sorted by name: the same sample whichever VU's check k6 listed first.
    expect(found.get('errors:x')?.status).toBe(503);
    expect(
      samplesOf([check(sampleCheckName('errors:x', b)), check(sampleCheckName('errors:x', a))]).get(
        'errors:x',
      )?.status,
    ).toBe(503);
    expect(b.body).toBeUndefined();
    expect(a).toEqual({
      why: 'a',
      request: 'GET /x',
      status: 503,
      headers: { 'Content-Type': 'text/plain' },
      body: 'down',
    });
  });

  it('cut to a few KiB, and cleaned of the configured secrets, the token and credential headers', () => {
    const long = sampleOf(
      { status: 200, headers: { 'X-Long': 'h'.repeat(5000) } },
      `{"token":"${TOKEN}","client_secret":"x","echo":"${SECRET}"}${'b'.repeat(5000)}`,
      'why',
    );
    expect(long.body?.length).toBe(1000);
    expect(long.headers['X-Long']?.length).toBe(500);
    const clean = cleanSample(
      { ...long, headers: { ...long.headers, 'Set-Cookie': `s=${TOKEN}`, 'X-Echo': TOKEN } },
      [SECRET, TOKEN],
    );
    const text = JSON.stringify(clean);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SECRET);
    expect(clean.headers['Set-Cookie']).toBe(REDACTED);
  });

  it('is no check of the target: the report leaves it out of its checks', () => {
    const s = sampleOf({ status: 429, headers: {} }, null, 'a poll answered 429');
    const r = buildReport(
      summary({}, [check('feature flags answered 200'), check(sampleCheckName('rate-limited', s))]),
      {
        script: 'flag-cache',
        target,
        finishedAt,
      },
    );
    expect(r.checks.map((c) => c.name)).toEqual(['feature flags answered 200']);
  });
});

describe('the flag-cache probe', () => {
  const plan = readFlagPlan({}, true, 'smoke');
  const violation = sampleOf(
    { status: 200, headers: { 'Content-Type': 'application/json' } },
    '{"flags":[{"name":"beta","enabled":false}]}',
    'the data changed at 31.0 s, at most 12.0 s after the renewal the previous change at 19.0 s came from (the window is 60 s)',
    'GET /v1/feature-flags',
  );
  const limited = sampleOf(
    { status: 429, headers: { 'Retry-After': '3' } },
    null,
    'a poll answered 429',
    'GET /v1/feature-flags',
  );
  const metrics = {
    flag_cache_violations: {
      type: 'counter',
      values: { count: 2 },
      thresholds: { 'count==0': { ok: false } },
    },
    flag_cache_rate_limited: {
      type: 'counter',
      values: { count: 1 },
      thresholds: { 'count==0': { ok: false } },
    },
    flag_cache_change_interval_s: { type: 'trend', values: { min: 12, count: 3 } },
  } satisfies Record<string, K6Metric>;
  const samples = samplesOf([
    check(sampleCheckName('violation', violation)),
    check(sampleCheckName('rate-limited', limited)),
  ]);

  it('FLG-02 failed: the answer that changed too soon, with the request, in the Markdown, JUnit and JSON', () => {
    const found = flagCacheFindings(metrics, plan, samples);
    const flg = found.verdicts.find((v) => v.rules?.includes('FLG-02'));
    expect(flg?.ok).toBe(false);
    expect(flg?.sample).toEqual(violation);
    expect(found.verdicts.find((v) => v.name.startsWith('polling'))?.sample?.status).toBe(429);
    const r = {
      ...buildReport(summary(metrics, []), {
        script: 'flag-cache',
        target,
        finishedAt,
        ...found,
        verdicts: found.verdicts.map(withRuleTexts),
      }),
      rerun: 'npm run load:flag-cache -- --profile smoke',
    };
    const md = renderMarkdown(r);
    expect(md).toContain(
      `**flag data does not change within ${plan.windowSeconds} s of a renewal**: the data changed at 31.0 s`,
    );
    expect(md).toMatch(
      /```http\nGET \/v1\/feature-flags\n\nHTTP 200\nContent-Type: application\/json\n\n\{"flags"/,
    );
    expect(md).toContain('Run it again: `npm run load:flag-cache -- --profile smoke`');
    const junit = renderJunit(r);
    expect(junit).toContain('first such answer to GET /v1/feature-flags: HTTP 200');
    expect(junit).toContain('run again: npm run load:flag-cache -- --profile smoke');
    expect(valid(r)).toBe('valid');
  });

  it('a finding that held shows no sample, even when a poller kept one', () => {
    const found = flagCacheFindings(
      { ...metrics, flag_cache_violations: { type: 'counter', values: { count: 0 } } },
      plan,
      samples,
    );
    expect(found.verdicts.find((v) => v.rules?.includes('FLG-02'))?.sample).toBeUndefined();
  });
});

describe('the release profile', () => {
  const plan = readReleasePlan({}, true, 'smoke');
  const failed: Sample = sampleOf(
    { status: 503, headers: { 'Retry-After': '1' } },
    null,
    'a user saw HTTP 503 (after renewals)',
    'GET /v1/customers?page=N',
  );
  const slow: Sample = sampleOf(
    { status: 200, headers: {} },
    null,
    `answered in 2400.0 ms (p(95) must stay under ${plan.p95Ms} ms)`,
    'GET /v1/user/me',
  );
  const samples = samplesOf([
    check(sampleCheckName('errors:customers', failed)),
    check(sampleCheckName('slow:user-me', slow)),
  ]);

  it('each sample is the evidence of its endpoint`s threshold and of the overall one', () => {
    const byMetric = releaseThresholdSamples(samples);
    expect(byMetric.get(`${USER_ERRORS}{endpoint:customers}`)).toEqual(failed);
    expect(byMetric.get(USER_ERRORS)).toEqual(failed);
    expect(byMetric.get('http_req_duration{endpoint:user-me}')).toEqual(slow);
    expect(byMetric.get('http_req_duration{scenario:users}')).toEqual(slow);
    expect(byMetric.has(`${USER_ERRORS}{endpoint:user-me}`)).toBe(false);
  });

  it('a crossed threshold shows its sample under the table, in JUnit and the JSON; a held one none', () => {
    const metrics = {
      [`${USER_ERRORS}{endpoint:customers}`]: {
        type: 'rate',
        values: { rate: 0.25, passes: 1, fails: 3 },
        thresholds: { [`rate<${plan.maxErrorRate}`]: { ok: false } },
      },
      'http_req_duration{endpoint:user-me}': {
        type: 'trend',
        contains: 'time',
        values: { 'p(95)': 10 },
        thresholds: { [`p(95)<${plan.p95Ms}`]: { ok: true } },
      },
    } satisfies Record<string, K6Metric>;
    const r = {
      ...buildReport(summary(metrics, [check(sampleCheckName('errors:customers', failed))]), {
        script: 'release',
        target,
        finishedAt,
        thresholdSamples: releaseThresholdSamples(samples),
      }),
      rerun: 'npm run load:release -- --profile smoke',
    };
    const crossed = r.thresholds.find((t) => t.metric === `${USER_ERRORS}{endpoint:customers}`);
    expect(crossed?.sample).toEqual(failed);
    expect(
      r.thresholds.find((t) => t.metric === 'http_req_duration{endpoint:user-me}')?.sample,
    ).toBeUndefined();
    const md = renderMarkdown(r);
    expect(md).toContain(
      `**release\\_errors{endpoint:customers}: rate&lt;${plan.maxErrorRate}**: a user saw HTTP 503 (after renewals); the first such answer (HTTP 503):`,
    );
    expect(md).toMatch(
      /```http\nGET \/v1\/customers\?page=N\n\nHTTP 503\nRetry-After: 1\n\n\(body not read\)\n```/,
    );
    expect(md).not.toContain('2400.0 ms');
    const junit = renderJunit(r);
    expect(junit).toContain(
      'first such answer to GET /v1/customers?page=N: HTTP 503; run again: npm run load:release',
    );
    expect(valid(r)).toBe('valid');
  });
});
