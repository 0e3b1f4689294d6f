// The limiter over time of a split run, from the union of the runners' requests: each request
// counted once in its column (accepted, 429, or no answer / 5xx), and the merged report carries it
// for index.html's limiter picture.
import { describe, expect, it } from 'vitest';
import { latencyOf, renderLatencySvg } from '../../../load/lib/summary/latency-chart.ts';
import { timelineOf } from '../../../load/lib/summary/limiter-chart.ts';
import { mergedReport } from '../../../src/launcher/merge/report.ts';
import { mergeRunners, type Sample } from '../../../src/launcher/merge/samples.ts';
import { mergedLatency, mergedTimeline } from '../../../src/launcher/merge/timeline.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { fixtureResults } from '../../report/fixture.ts';

const at = (ms: number, status: string): Sample => ({
  value: 1,
  tags: { status },
  time: 1_800_000_000_000 + ms,
});

describe('mergedTimeline', () => {
  it('counts every request once, by kind, in columns from the first request', () => {
    const points = mergedTimeline([
      at(0, '200'),
      at(10, '429'),
      at(2_400, '503'),
      at(4_799, '401'),
      at(4_799, '0'),
    ]);
    // 4.8 s over 240 columns: 20 ms each.
    expect(points).toEqual([
      { atMs: 0, accepted: 1, limited: 1, other: 0 },
      { atMs: 2_400, accepted: 0, limited: 0, other: 1 },
      { atMs: 4_780, accepted: 1, limited: 0, other: 1 },
    ]);
  });

  it('has nothing to draw without timed requests', () => {
    expect(mergedTimeline([])).toBeUndefined();
    expect(mergedTimeline([{ value: 1, tags: { status: '200' }, time: Number.NaN }])).toBeUndefined();
  });
});

describe('the merged report', () => {
  it('carries the timeline of both runners, read back as index.html reads it', () => {
    const line = (o: unknown) => `${JSON.stringify(o)}\n`;
    const share = (statuses: string[], second: number) =>
      statuses
        .map((status) =>
          line({
            type: 'Point',
            metric: 'http_reqs',
            data: { time: `2026-11-28T10:00:0${second}Z`, value: 1, tags: { status } },
          }),
        )
        .join('');
    const merged = mergeRunners(
      [
        { name: 'runner-1', segment: '0:1/2', exitCode: 0, text: share(['200', '200', '429'], 0) },
        { name: 'runner-2', segment: '1/2:1', exitCode: 0, text: share(['200', '429'], 5) },
      ],
      { http_reqs: ['count>0'] },
    );
    const report = mergedReport(merged, {
      script: 'release',
      target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
      finishedAt: new Date('2026-11-28T10:01:00Z'),
    });
    const timeline = timelineOf(report.analysis);
    expect(timeline?.reduce((n, p) => n + p.accepted, 0)).toBe(3);
    expect(timeline?.reduce((n, p) => n + p.limited, 0)).toBe(2);
    expect(timeline?.at(-1)?.atMs).toBeGreaterThan(4_900);
  });
});

describe('mergedLatency', () => {
  const took = (ms: number, endpoint: string, value: number): Sample => ({
    value,
    tags: { endpoint },
    time: 1_800_000_000_000 + ms,
  });

  it('gives the p95 of each endpoint in each column, from every runner alike', () => {
    // 20 customers requests in the first column (1..20 ms), 2 user-me requests in the last.
    const samples = [
      ...Array.from({ length: 20 }, (_, i) => took(i, 'customers', i + 1)),
      took(5_999, 'user-me', 300),
      took(5_999, 'user-me', 100),
    ];
    const points = mergedLatency(samples);
    // 6 s over 60 columns: 100 ms each; p95 of 1..20 interpolated at rank 18.05: 19.05.
    expect(points).toEqual([
      { atMs: 0, endpoint: 'customers', p95: 19.05, count: 20 },
      { atMs: 5_900, endpoint: 'user-me', p95: 290, count: 2 },
    ]);
    const svg = renderLatencySvg(points ?? []);
    expect(svg.match(/<polyline data-series="(customers|user-me)"/g)).toHaveLength(2);
  });

  it('leaves untagged or untimed samples out', () => {
    expect(mergedLatency([{ value: 1, tags: {}, time: 1 }])).toBeUndefined();
  });
});

describe('the conformance page of a split run', () => {
  it('draws the merged limiter and latency over time', () => {
    const line = (o: unknown) => `${JSON.stringify(o)}\n`;
    const text = ['200', '429']
      .map((status, i) =>
        [
          line({
            type: 'Point',
            metric: 'http_reqs',
            data: { time: `2026-11-28T10:00:0${i}Z`, value: 1, tags: { status } },
          }),
          line({
            type: 'Point',
            metric: 'http_req_duration',
            data: { time: `2026-11-28T10:00:0${i}Z`, value: 40 + i, tags: { endpoint: 'customers' } },
          }),
        ].join(''),
      )
      .join('');
    const merged = mergeRunners([{ name: 'runner-1', segment: '0:1', exitCode: 0, text }], {
      http_reqs: ['count>0'],
    });
    const report = mergedReport(merged, {
      script: 'release',
      target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
      finishedAt: new Date('2026-11-28T10:01:00Z'),
    });
    expect(latencyOf(report.analysis)?.map((p) => p.p95)).toEqual([40, 41]);
    const html = renderHtml(fixtureResults(), [
      {
        script: 'release',
        verdict: report.verdict,
        finishedAt: report.finishedAt,
        durationMs: report.durationMs,
        target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
        markdown: 'k6-release.md',
        figures: report.figures,
        verdicts: report.verdicts,
        ...(report.analysis ? { analysis: report.analysis } : {}),
      },
    ]);
    expect(html).toContain('The limiter over time');
    expect(html).toContain('<div class="limiter" data-kind="latency"><svg');
    expect(html).toContain('<polyline data-series="customers"');
  });
});
