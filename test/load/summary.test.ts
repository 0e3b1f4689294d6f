// handleSummary's outputs: the report built from k6's summary data, rendered as JSON, Markdown,
// JUnit (parsed back with fast-xml-parser) and console text, with every secret removed.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { UNREAD_METRIC } from '../../load/lib/bounded.ts';
import { unreadTokenStop } from '../../load/lib/bounded-read.ts';
import { escapeXml, renderJunit } from '../../load/lib/summary/junit.ts';
import type { K6SummaryData } from '../../load/lib/summary/k6-data.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { reportPaths, summaryOutputs } from '../../load/lib/summary/outputs.ts';
import { buildReport, formatValue, isPlumbing } from '../../load/lib/summary/report.ts';
import { renderText } from '../../load/lib/summary/text.ts';

const SECRET = 'client-secret-value-42';

function data(overrides: { thresholdOk?: boolean; plumbingOk?: boolean } = {}): K6SummaryData {
  return {
    state: { testRunDurationMs: 12_345.6 },
    metrics: {
      http_reqs: { type: 'counter', values: { count: 120, rate: 9.7 } },
      http_req_duration: {
        type: 'trend',
        contains: 'time',
        values: { min: 0.5, avg: 2.25, med: 2, 'p(95)': 4.5, max: 9 },
        thresholds: { 'p(95)<500': { ok: true } },
      },
      http_req_failed: {
        type: 'rate',
        values: { rate: 0.025, passes: 3, fails: 117 },
        thresholds: { 'rate<0.01': { ok: overrides.thresholdOk ?? false } },
      },
      data_received: { type: 'counter', contains: 'data', values: { count: 2048, rate: 100.4 } },
      'rate_limit_accepted{sec:3}': {
        type: 'counter',
        values: { count: 5 },
        thresholds: { 'count>=0': { ok: overrides.plumbingOk ?? true } },
      },
    },
    root_group: {
      name: '',
      path: '',
      checks: [{ name: 'customers page 200', path: '::customers page 200', passes: 40, fails: 2 }],
      groups: [
        {
          name: 'inner',
          path: '::inner',
          checks: [{ name: 'pets <200> & "ok"', path: '::inner::pets', passes: 10, fails: 0 }],
          groups: [],
        },
      ],
    },
  };
}

function report(overrides: Parameters<typeof data>[0] & { verdictOk?: boolean; inconclusive?: string } = {}) {
  return buildReport(data(overrides), {
    ...(overrides.inconclusive ? { inconclusive: overrides.inconclusive } : {}),
    script: 'release',
    target: { name: 'staging', apiBaseUrl: 'https://staging.example.test/api/' },
    finishedAt: new Date('2026-11-23T10:00:00Z'),
    figures: [{ label: 'profile', value: `smoke | 2 users (token for ${SECRET})` }],
    verdicts: [
      { name: 'no 5xx under load', ok: true, detail: '0' },
      { name: 'every 429 carries Retry-After', ok: overrides.verdictOk ?? false, detail: '3 malformed' },
      { name: 'a request after waiting succeeds', ok: null, detail: 'no 429 seen' },
    ],
    notes: ['a note'],
    analysis: { limit: { limited: false } },
  });
}

describe('buildReport', () => {
  it('collects thresholds and checks, and leaves the per-second plumbing out', () => {
    const r = report();
    expect(r.passed).toBe(false);
    expect(r.durationMs).toBe(12_346);
    expect(r.thresholds).toEqual([
      { metric: 'http_req_duration', expression: 'p(95)<500', ok: true, measured: '4.5 ms' },
      { metric: 'http_req_failed', expression: 'rate<0.01', ok: false, measured: '2.50 %' },
    ]);
    expect(r.checks.map((c) => c.name)).toEqual(['customers page 200', 'pets <200> & "ok"']);
    expect(Object.keys(r.metrics)).not.toContain('rate_limit_accepted{sec:3}');
    expect(isPlumbing('x{sec:12}')).toBe(true);
    expect(isPlumbing('x{endpoint:pets}')).toBe(false);
  });

  it('passes when every threshold and verdict holds; fails on plumbing or a failed verdict', () => {
    expect(report({ thresholdOk: true, verdictOk: true })).toMatchObject({ passed: true, verdict: 'passed' });
    expect(report({ thresholdOk: true, verdictOk: true, plumbingOk: false }).verdict).toBe('failed');
    expect(report({ thresholdOk: true, verdictOk: false }).verdict).toBe('failed');
  });

  it('is inconclusive, never passed, when the run could not put its rule to the test', () => {
    const r = report({ thresholdOk: true, verdictOk: true, inconclusive: 'no window was put to the test' });
    expect(r).toMatchObject({
      passed: false,
      verdict: 'inconclusive',
      verdictReason: 'no window was put to the test',
    });
    expect(renderMarkdown(r).split('\n')[0]).toBe('# k6 release: INCONCLUSIVE');
    expect(renderJunit(r)).toContain('<failure message="inconclusive: no window was put to the test"/>');
    expect(renderText(r, []).split('\n')[1]).toBe('  inconclusive: no window was put to the test');
    // A failure outweighs inconclusiveness.
    expect(report({ verdictOk: true, inconclusive: 'x' }).verdict).toBe('failed');
  });

  it('notes the bodies not read, hides their sub-metrics, and calls a run with no token read inconclusive', () => {
    const unread = (purpose: string) => {
      const d = data({ thresholdOk: true });
      d.metrics[UNREAD_METRIC] = { type: 'counter', values: { count: 2, rate: 1 } };
      d.metrics[`${UNREAD_METRIC}{why:too-large}`] = {
        type: 'counter',
        values: { count: 2 },
        thresholds: { 'count>=0': { ok: true } },
      };
      d.metrics[`${UNREAD_METRIC}{purpose:${purpose}}`] = {
        type: 'counter',
        values: { count: 2 },
        thresholds: { 'count>=0': { ok: true } },
      };
      return buildReport(d, {
        script: 'release',
        target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
        finishedAt: new Date('2026-11-23T10:00:00Z'),
        inconclusive: purpose === 'flags' ? 'no poller saw two renewals' : undefined,
      });
    };
    const flags = unread('flags');
    expect(flags.verdict).toBe('inconclusive');
    expect(flags.verdictReason).toBe('no poller saw two renewals');
    expect(flags.notes.at(-1)).toMatch(/^2 answers not read, so not judged \(2 declared more than 1 MiB\)/);
    expect(Object.keys(flags.metrics).filter((m) => m.startsWith(`${UNREAD_METRIC}{`))).toEqual([]);
    expect(flags.metrics[UNREAD_METRIC]?.values.count).toBe(2);
    expect(flags.thresholds.some((t) => t.metric.startsWith(`${UNREAD_METRIC}{`))).toBe(false);
    const renewal = unread('renewal');
    expect(renewal.verdict).toBe('passed');
    expect(renewal.notes.at(-1)).toContain('Not judged: whether an error answer was SESSION_EXPIRED');
    // No token read: nothing was load-tested, whatever else the run says (its reason comes first).
    const token = unread('token');
    expect(token.verdict).toBe('inconclusive');
    expect(token.verdictReason).toMatch(/^no token answer could be read .*nothing was load-tested/);
    expect(unreadTokenStop({})).toBeUndefined();
  });

  it('formats values for people', () => {
    expect(formatValue({ type: 'rate' }, 'rate', 0.025)).toBe('2.50 %');
    expect(formatValue({ type: 'trend', contains: 'time' }, 'p(95)', 4.5)).toBe('4.5 ms');
    expect(formatValue({ type: 'counter', contains: 'data' }, 'rate', 100.4)).toBe('100 B/s');
    expect(formatValue({ type: 'counter' }, 'rate', 9.7)).toBe('9.70/s');
    expect(formatValue({ type: 'counter' }, 'count', 120)).toBe('120');
  });
});

describe('the JUnit report', () => {
  const xml = renderJunit(report());
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (n) => n === 'testcase',
  }).parse(xml);
  const suite = parsed.testsuites.testsuite;
  const cases = suite.testcase as {
    classname: string;
    name: string;
    failure?: { message: string };
    skipped?: { message: string };
  }[];

  it('is well-formed XML with one case per threshold, check and verdict', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(cases).toHaveLength(2 + 2 + 3);
    expect(suite).toMatchObject({
      name: 'k6-release',
      tests: '7',
      failures: '3',
      skipped: '1',
      time: '12.346',
    });
    expect(parsed.testsuites).toMatchObject({ tests: '7', failures: '3' });
  });

  it('names what failed and why', () => {
    const failed = cases.filter((c) => c.failure).map((c) => [c.classname, c.name, c.failure?.message]);
    expect(failed).toEqual([
      [
        'k6.release.thresholds',
        'http_req_failed: rate<0.01',
        'threshold rate<0.01 on http_req_failed was crossed: measured 2.50 %',
      ],
      ['k6.release.checks', 'customers page 200', '2 of 42 failed'],
      ['k6.release.analysis', 'every 429 carries Retry-After', '3 malformed'],
    ]);
    expect(cases.find((c) => c.skipped)?.skipped?.message).toBe('no 429 seen');
  });

  it('escapes markup and shows characters XML cannot carry as escapes', () => {
    expect(cases.some((c) => c.name === 'pets <200> & "ok"')).toBe(true);
    expect(escapeXml("a\u0001b<'>")).toBe('a\\x01b&lt;&apos;&gt;');
  });
});

describe('the Markdown report', () => {
  const md = renderMarkdown(report());

  it('opens with the verdict and target, then findings, verdicts, thresholds, checks, metrics', () => {
    expect(md.split('\n')[0]).toBe('# k6 release: FAILED');
    expect(md).toContain('Target **staging** (https://staging.example.test/api/), 12.3 s');
    const order = [
      '## Findings',
      '| verdict | rule | result | detail |',
      '## Thresholds',
      '## Checks',
      '## Metrics',
      '## Notes',
    ];
    const positions = order.map((h) => md.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('keeps tables intact and marks failures', () => {
    expect(md).toContain('smoke \\| 2 users');
    // Every cell through the one Markdown escaper (common/safe-text.ts).
    expect(md).toContain('| http\\_req\\_failed | rate&lt;0.01 | 2.50 % | **FAIL** |');
    expect(md).toContain('| every 429 carries Retry-After | no rule of the spec');
    expect(md).toContain(' | **FAIL** | 3 malformed |');
    expect(md).toContain(' | undecided | no 429 seen |');
    expect(md).toContain(
      '| http\\_req\\_duration | min 0.5 ms, avg 2.3 ms, med 2.0 ms, p(95) 4.5 ms, max 9.0 ms |',
    );
    expect(md).not.toContain('{sec:');
  });

  it('says passed when it did', () => {
    expect(renderMarkdown(report({ thresholdOk: true, verdictOk: true })).split('\n')[0]).toBe(
      '# k6 release: passed',
    );
  });
});

describe('summaryOutputs', () => {
  const outputs = summaryOutputs(report(), 'out/dir/', [SECRET, 'short']);

  it('writes the three report files next to each other and the console text', () => {
    expect(Object.keys(outputs).sort()).toEqual(
      ['out/dir/k6-release.json', 'out/dir/k6-release.junit.xml', 'out/dir/k6-release.md', 'stdout'].sort(),
    );
    expect(reportPaths('', 'x').json).toBe('./k6-x.json');
    const json = JSON.parse(outputs['out/dir/k6-release.json'] as string);
    expect(json).toMatchObject({ script: 'release', passed: false, analysis: { limit: { limited: false } } });
  });

  it('removes every secret from every output', () => {
    for (const [name, text] of Object.entries(outputs)) {
      expect(text, name).not.toContain(SECRET);
    }
    expect(outputs['out/dir/k6-release.md']).toContain('\\[REDACTED\\]');
    expect(createSecretFilter(['abc', 'abcabc']).text('abcabc')).toBe('[REDACTED]');
  });

  it('prints a console summary with verdict marks and the report paths', () => {
    const text = renderText(report(), ['a.json']);
    expect(text.split('\n')[0]).toBe(
      'k6 release against staging (https://staging.example.test/api/): FAILED in 12.3 s',
    );
    expect(text).toContain('  ✗ every 429 carries Retry-After: 3 malformed');
    expect(text).toContain('  ? a request after waiting succeeds: no 429 seen');
    expect(text).toContain('  ✗ check "customers page 200": 2 of 42 failed');
    expect(text).toContain('  requests: 120, p(95) 4.5 ms');
    expect(text).toContain('  reports: a.json');
  });
});
