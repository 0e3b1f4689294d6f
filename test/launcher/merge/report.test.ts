import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../../load/lib/summary/junit.ts';
import { renderMarkdown } from '../../../load/lib/summary/markdown.ts';
import { mergedReport, metricValues } from '../../../src/launcher/merge/report.ts';
import { mergeRunners } from '../../../src/launcher/merge/samples.ts';

const line = (o: unknown) => `${JSON.stringify(o)}\n`;
function share(durations: number[], checkFails = 0): string {
  let text = line({ type: 'Metric', metric: 'http_req_duration', data: { type: 'trend', contains: 'time' } });
  text += line({ type: 'Metric', metric: 'checks', data: { type: 'rate' } });
  durations.forEach((d, i) => {
    const time = `2026-11-28T10:00:0${i % 10}Z`;
    text += line({
      type: 'Point',
      metric: 'http_req_duration',
      data: { time, value: d, tags: { endpoint: 'customers' } },
    });
    text += line({ type: 'Point', metric: 'http_reqs', data: { time, value: 1, tags: {} } });
    text += line({
      type: 'Point',
      metric: 'checks',
      data: { time, value: i < checkFails ? 0 : 1, tags: { check: 'customers page 200' } },
    });
  });
  return text;
}

const th = { 'http_req_duration{endpoint:customers}': ['p(95)<50'], http_reqs: ['count>0'] };

describe('the merged report', () => {
  it("recomputes k6's figures from the union and judges the thresholds there", () => {
    const merged = mergeRunners(
      [
        { name: 'runner-1', segment: '0:1/2', exitCode: 0, text: share([10, 20, 30]) },
        { name: 'runner-2', segment: '1/2:1', exitCode: 99, text: share([40, 100], 1) },
      ],
      th,
    );
    const report = mergedReport(merged, {
      script: 'release',
      target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
      finishedAt: new Date('2026-11-28T10:01:00Z'),
    });
    expect(report.verdict).toBe('failed');
    expect(report.metrics['http_req_duration{endpoint:customers}']?.values).toMatchObject({
      count: 5,
      max: 100,
      min: 10,
    });
    expect(report.metrics.http_reqs?.values.count).toBe(5);
    expect(report.checks).toEqual([{ name: 'customers page 200', passes: 4, fails: 1 }]);
    // The measured value beside the limit, from the union (the summary's threshold rows show it).
    expect(report.thresholds).toContainEqual({
      metric: 'http_req_duration{endpoint:customers}',
      expression: 'p(95)<50',
      measured: '88.0 ms',
      ok: false,
    });
    expect(report.figures[0]?.value).toBe('2: runner-1 0:1/2 (3 requests), runner-2 1/2:1 (2 requests)');
  });

  it('a missing share makes it incomplete in JSON, Markdown and JUnit, naming the runner', () => {
    const merged = mergeRunners(
      [
        { name: 'runner-1', segment: '0:1/2', exitCode: 0, text: share([10, 20]) },
        { name: 'runner-2', segment: '1/2:1', exitCode: null, text: share([10]) },
      ],
      th,
    );
    const report = mergedReport(merged, {
      script: 'release',
      target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
      finishedAt: new Date(),
    });
    expect(report).toMatchObject({ verdict: 'incomplete', passed: false });
    expect(report.verdictReason).toMatch(/runner-2 \(segment 1\/2:1\): the process did not end/);
    expect(renderMarkdown(report).split('\n')[0]).toBe('# k6 release: INCOMPLETE');
    expect(renderJunit(report)).toMatch(/<failure message="incomplete: [^"]*runner-2/);
    expect(report.verdicts.find((v) => v.name.startsWith('runner-2'))?.ok).toBeNull();
    expect(report.verdicts.find((v) => v.name.startsWith('runner-1'))?.ok).toBe(true);
  });

  it('counters sum to a rate over the run; rates count passes and fails', () => {
    expect(metricValues('counter', [1, 1, 2], 2000)).toEqual({ count: 4, rate: 2 });
    expect(metricValues('rate', [1, 0, 0, 1], 1000)).toEqual({ rate: 0.5, passes: 2, fails: 2 });
    expect(metricValues('trend', [1, 2, 3, 4, 5], 1000)).toMatchObject({ med: 3, avg: 3, count: 5 });
  });
});
