// Load verdicts as traceable as conformance ones (issue 33): each finding names the rules it
// judges, with their level and the spec's words (added on the Node side from the catalogue), in the
// Markdown, JSON and JUnit outputs; a threshold row shows the measured value next to its limit.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { flagCacheFindings } from '../../load/lib/flag-cache-findings.ts';
import { renderJunit } from '../../load/lib/summary/junit.ts';
import type { K6SummaryData } from '../../load/lib/summary/k6-data.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { buildReport, type Verdict } from '../../load/lib/summary/report.ts';
import { renderText } from '../../load/lib/summary/text.ts';
import { withRuleTexts } from '../../src/launcher/run-outcome.ts';
import { readBackLoadReport } from '../../src/report/read-back.ts';

const data: K6SummaryData = {
  state: { testRunDurationMs: 30_000 },
  metrics: {
    release_errors: {
      type: 'rate',
      values: { rate: 0.0042, passes: 1, fails: 237 },
      thresholds: { 'rate<0.001': { ok: false } },
    },
    'http_req_duration{scenario:users}': {
      type: 'trend',
      contains: 'time',
      values: { min: 1, avg: 20, med: 15, 'p(95)': 812.04, max: 900 },
      thresholds: { 'p(95)<500': { ok: false } },
    },
  },
  root_group: { name: '', path: '', checks: [], groups: [] },
} as unknown as K6SummaryData;

const verdicts: Verdict[] = [
  {
    name: 'a caller over the limit is answered 429',
    ok: false,
    detail: 'refused with HTTP 503 instead of 429',
    rule: 'RATE-01',
    rules: ['RATE-01'],
  },
  {
    name: 'every 429 carries the error body and Retry-After',
    ok: true,
    detail: '12 checked',
    rules: ['RATE-02', 'RATE-03'],
  },
  { name: 'what the headers declare matches what the limiter does', ok: null, detail: 'no quota declared' },
].map(withRuleTexts);

const report = buildReport(data, {
  script: 'rate-limit',
  target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
  finishedAt: new Date('2026-11-28T10:00:00Z'),
  verdicts,
});

describe('threshold rows show the measured value next to the limit', () => {
  it('in the JSON, the Markdown, the JUnit failure and the console text, in the metric unit', () => {
    const errors = report.thresholds.find((t) => t.metric === 'release_errors');
    const p95 = report.thresholds.find((t) => t.metric.startsWith('http_req_duration'));
    expect(errors?.measured).toBe('0.42 %');
    expect(p95?.measured).toBe('812.0 ms');
    const md = renderMarkdown(report);
    expect(md).toContain('| release\\_errors | rate&lt;0.001 | 0.42 % | **FAIL** |');
    expect(renderJunit(report)).toContain('was crossed: measured 812.0 ms');
    expect(renderText(report, [])).toContain('(measured 0.42 %)');
  });
});

describe('each finding carries its rules, their level and the spec words', () => {
  it('the JSON: rules and ruleTexts from the catalogue; valid by the k6 report schema', () => {
    const v = report.verdicts[0];
    expect(v?.ruleTexts).toEqual([
      {
        id: 'RATE-01',
        level: 'ADVICE',
        text: 'A caller over the limit is answered 429 Too Many Requests.',
        section: 'Limits (a rate limiter exists)',
      },
    ]);
    expect(report.verdicts[1]?.ruleTexts?.map((r) => `${r.id} ${r.level}`)).toEqual([
      'RATE-02 MUST',
      'RATE-03 ADVICE',
    ]);
    const back = readBackLoadReport(JSON.parse(JSON.stringify(report)));
    expect(back.ok ? 'valid' : back.reason).toBe('valid');
  });

  it('the Markdown: a rule column with id, level and quote; a finding with no spec rule says so', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('| verdict | rule | result | detail |');
    expect(md).toMatch(
      /\| a caller over the limit is answered 429 \| RATE-01 \(ADVICE\): A caller over the limit is answered 429/,
    );
    expect(md).toMatch(
      /RATE-02 \(MUST\): The rate limiter's answer carries the error body\.<br>RATE-03 \(ADVICE\)/,
    );
    expect(md).toMatch(/what the headers declare matches what the limiter does \| no rule of the spec/);
  });

  it('the JUnit: rule ids end the case name, the failure quotes level and words', () => {
    const xml = new XMLParser({ ignoreAttributes: false }).parse(renderJunit(report));
    const cases = [xml.testsuites.testsuite.testcase].flat() as {
      '@_name': string;
      failure?: { '@_message': string };
    }[];
    const limiter = cases.find((c) => c['@_name'] === 'a caller over the limit is answered 429 [RATE-01]');
    expect(limiter?.failure?.['@_message']).toContain(
      'RATE-01 (ADVICE): A caller over the limit is answered 429',
    );
  });

  it('the probes name their rules: flag cache FLG-02', () => {
    const found = flagCacheFindings(
      { flag_cache_violations: { type: 'counter', values: { count: 1 } } } as never,
      {
        windowSeconds: 60,
        toggleFeatures: [],
        lapseSeconds: 0,
        vus: 2,
        pollSeconds: 5,
        durationSeconds: 60,
      } as never,
    );
    expect(found.verdicts.find((v) => v.name.startsWith('flag data'))?.rules).toEqual(['FLG-02']);
  });
});

describe('a failed finding says how to see it again', () => {
  it('the launcher adds the command that runs the probe again; the Markdown shows it, a failed JUnit case carries it', () => {
    const again = { ...report, rerun: 'npm run load:rate-limit -- --profile smoke' };
    expect(renderMarkdown(again)).toContain('Run it again: `npm run load:rate-limit -- --profile smoke`');
    const xml = new XMLParser({ ignoreAttributes: false }).parse(renderJunit(again));
    const cases = [xml.testsuites.testsuite.testcase].flat() as {
      '@_name': string;
      failure?: { '@_message': string };
    }[];
    const failed = cases.find((c) => c['@_name'].startsWith('a caller over the limit'));
    expect(failed?.failure?.['@_message']).toContain('run again: npm run load:rate-limit -- --profile smoke');
    const back = readBackLoadReport(JSON.parse(JSON.stringify(again)));
    expect(back.ok ? 'valid' : back.reason).toBe('valid');
  });
});

describe('a failed finding shows a sample exchange', () => {
  it('the probe keeps the first answer a failure is about; the finding carries it into the Markdown and JUnit', async () => {
    const { runLimitProbe } = await import('../../load/lib/limit-probe.ts');
    const { simulatedIO } = await import('./simulated-limiter.ts');
    const { rateLimitFindings } = await import('../../load/lib/rate-limit-findings.ts');
    const { readRatePlan } = await import('../../load/lib/rate-plan.ts');
    // A limiter that answers 500 where it should answer 429.
    const result = runLimitProbe(simulatedIO({ limit: { limit: 10, windowSeconds: 1 }, fault: '500' }), {
      ...(await import('../../load/lib/limit-probe.ts')).DEFAULT_LIMITS,
      budgetMs: 60_000,
      maxBurst: 2000,
    });
    expect(result.tally.sample).toMatchObject({ status: 500, why: 'refused with HTTP 500 instead of 429' });
    const found = rateLimitFindings(result, readRatePlan({}, 'smoke'));
    const failed = found.verdicts.find((v) => v.name.startsWith('a caller over the limit'));
    expect(failed?.sample?.status).toBe(500);
    const r = buildReport(data, {
      script: 'rate-limit',
      target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
      finishedAt: new Date('2026-11-28T10:00:00Z'),
      verdicts: found.verdicts.map(withRuleTexts),
    });
    const md = renderMarkdown(r);
    expect(md).toContain('refused with HTTP 500 instead of 429; the first such answer (HTTP 500):');
    expect(md).toMatch(/```http\nHTTP 500\n/);
    expect(renderJunit(r)).toContain('first such answer: HTTP 500');
    const back = readBackLoadReport(JSON.parse(JSON.stringify(r)));
    expect(back.ok ? 'valid' : back.reason).toBe('valid');
  });
});
