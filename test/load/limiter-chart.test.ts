// The limiter drawn: the probe records every send (accepted, 429, other, the RateLimit remaining
// value), the record survives a round trip through the JSON report, and the SVG shows the same
// counts; handleSummary writes it and the Markdown shows it only for a run that has one.
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  mergePairs,
  type ProbeLimits,
  runLimitProbe,
  TIMELINE_POINTS,
  type TimelinePoint,
} from '../../load/lib/limit-probe.ts';
import { figuresOf, renderLimiterSvg, timelineOf } from '../../load/lib/summary/limiter-chart.ts';
import { renderMarkdown } from '../../load/lib/summary/markdown.ts';
import { reportPaths, summaryOutputs } from '../../load/lib/summary/outputs.ts';
import type { LoadReport } from '../../load/lib/summary/report.ts';
import { loadReportFixture } from '../support/load-report.ts';
import { simulatedIO } from './simulated-limiter.ts';

const SMOKE: ProbeLimits = { ...DEFAULT_LIMITS, budgetMs: 60_000, maxBurst: 2000 };
const sum = (points: readonly TimelinePoint[], key: 'accepted' | 'limited' | 'other') =>
  points.reduce((n, p) => n + p[key], 0);

function report(analysis: Record<string, unknown>): LoadReport {
  return loadReportFixture({
    tool: 't',
    script: 'rate-limit',
    target: { name: 'local', apiBaseUrl: 'http://127.0.0.1:1/api/' },
    durationMs: 1,
    analysis,
  });
}

describe('the limiter drawn', () => {
  const result = runLimitProbe(
    simulatedIO({ limit: { limit: 20, windowSeconds: 1, shape: 'fixed-window' }, headers: true }),
    SMOKE,
  );
  const timeline = result.timeline ?? [];

  it('records every answer of the probe once, in time order, with the remaining value announced', () => {
    expect(timeline.length).toBeGreaterThan(3);
    expect(sum(timeline, 'accepted')).toBe(result.tally.accepted);
    expect(sum(timeline, 'limited')).toBe(result.tally.limited);
    expect(result.tally.limited).toBeGreaterThan(0);
    expect(timeline.map((p) => p.atMs)).toEqual([...timeline.map((p) => p.atMs)].sort((a, b) => a - b));
    // Headers on: a full allowance announced at the start, and again after each refill.
    expect(timeline[0]?.remaining).toBe(19);
    expect(timeline.filter((p) => p.remaining === 19).length).toBeGreaterThanOrEqual(2);
  });

  it('merges neighbours two by two, keeping the counts and the most remaining', () => {
    const points: TimelinePoint[] = [
      { atMs: 0, accepted: 2, limited: 0, other: 0, remaining: 3 },
      { atMs: 5, accepted: 0, limited: 4, other: 1, remaining: 0 },
      { atMs: 9, accepted: 1, limited: 0, other: 0 },
    ];
    expect(mergePairs(points)).toEqual([
      { atMs: 0, accepted: 2, limited: 4, other: 1, remaining: 3 },
      { atMs: 9, accepted: 1, limited: 0, other: 0 },
    ]);
    expect(TIMELINE_POINTS).toBeGreaterThan(1000);
  });

  it('draws the same counts as the record, read back from the JSON report', () => {
    const analysis = JSON.parse(JSON.stringify({ timeline, limit: { shape: 'window', burst: 20 } }));
    const read = timelineOf(analysis);
    expect(read).toEqual(timeline);
    const svg = renderLimiterSvg(read ?? [], figuresOf(analysis));
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain(`data-series="429" data-count="${result.tally.limited}"`);
    expect(svg).toContain(`data-series="accepted" data-count="${result.tally.accepted}"`);
    expect(svg).toMatch(/<polyline data-series="remaining" points="[\d., ]+"/);
    expect(svg).toContain('measured: burst 20, a window');
    const limitedBars = /<g class="limited"[^>]*>(.*?)<\/g>/.exec(svg)?.[1] ?? '';
    expect(limitedBars.match(/<rect /g)?.length ?? 0).toBeGreaterThan(1);
  });

  it('reads no timeline from a report that has none, or a malformed one', () => {
    expect(timelineOf(undefined)).toBeUndefined();
    expect(timelineOf({ timeline: [] })).toBeUndefined();
    expect(timelineOf({ timeline: [{ atMs: 'x', accepted: 1, limited: 0, other: 0 }] })).toBeUndefined();
  });

  it('handleSummary writes the picture and the Markdown shows it, for a run with a timeline only', () => {
    const withTimeline = summaryOutputs(report({ timeline }), '/r', []);
    const paths = reportPaths('/r', 'rate-limit');
    expect(paths.limiter).toBe('/r/k6-rate-limit.limiter.svg');
    expect(withTimeline[paths.limiter]).toContain('<svg');
    expect(withTimeline[paths.markdown]).toContain(
      '## The limiter over time\n\n![accepted and 429 answers over time, and the RateLimit remaining value](k6-rate-limit.limiter.svg)',
    );
    expect(withTimeline.stdout).toContain('/r/k6-rate-limit.limiter.svg');
    const without = summaryOutputs(report({}), '/r', []);
    expect(without[paths.limiter]).toBeUndefined();
    expect(renderMarkdown(report({}))).not.toContain('limiter');
  });
});

describe('a long timeline (issue 30)', () => {
  it('of 300,000 points is drawn, not a stack overflow', () => {
    const timeline = Array.from({ length: 300_000 }, (_, i) => ({
      atMs: i * 10,
      accepted: 1,
      limited: 0,
      other: 0,
    }));
    expect(renderLimiterSvg(timelineOf({ timeline }) ?? [], {})).toMatch(/^<svg/);
  });
});
