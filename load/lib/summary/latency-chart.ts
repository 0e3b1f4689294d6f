// Latency over time per endpoint: the p95 of each column of time, one line per endpoint, from a
// report's analysis.latency (a split release run's merged samples: src/launcher/merge/timeline.ts).
// Pure and k6-safe, like the limiter picture beside it; index.html inlines it.
import { escapeXml } from './junit.ts';
import { fixed, niceStep, seconds } from './limiter-chart.ts';

export interface LatencyPoint {
  /** The column's start, ms after the run's first request. */
  atMs: number;
  endpoint: string;
  /** p95 of the column's request durations, ms. */
  p95: number;
  /** Requests in the column. */
  count: number;
}

const W = 960;
const H = 300;
const M = { left: 56, right: 24, top: 58, bottom: 40 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;
const COLORS = ['#0969da', '#cf222e', '#1a7f37', '#8250df', '#bf8700', '#57606a'];

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The latency series of a report's analysis (read back from JSON), or undefined without one. */
export function latencyOf(analysis: Record<string, unknown> | undefined): LatencyPoint[] | undefined {
  const raw = analysis?.latency;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const points: LatencyPoint[] = [];
  for (const p of raw as Record<string, unknown>[]) {
    if (typeof p !== 'object' || p === null || typeof p.endpoint !== 'string') return undefined;
    if (![p.atMs, p.p95, p.count].every(isNumber)) return undefined;
    points.push({
      atMs: p.atMs as number,
      endpoint: p.endpoint,
      p95: p.p95 as number,
      count: p.count as number,
    });
  }
  return points;
}

export function renderLatencySvg(points: readonly LatencyPoint[]): string {
  const endpoints = [...new Set(points.map((p) => p.endpoint))].sort();
  const endMs =
    Math.max(
      1,
      points.reduce((most, p) => Math.max(most, p.atMs), 0),
    ) * 1.02;
  const highest = Math.max(
    1,
    points.reduce((most, p) => Math.max(most, p.p95), 0),
  );
  const step = niceStep(highest, 4);
  const maxMs = step * Math.ceil(highest / step);
  const x = (ms: number) => M.left + (ms / endMs) * PW;
  const y = (ms: number) => M.top + PH - (ms / maxMs) * PH;
  const out: string[] = [];
  for (let v = 0; v <= maxMs; v += step) {
    out.push(
      `<line x1="${M.left}" x2="${M.left + PW}" y1="${fixed(y(v))}" y2="${fixed(y(v))}" stroke="#d0d7de"/>`,
      `<text x="${M.left - 6}" y="${fixed(y(v) + 4)}" text-anchor="end">${fixed(v)}</text>`,
    );
  }
  const timeStep = niceStep(endMs, 8);
  for (let t = 0; t <= endMs; t += timeStep) {
    out.push(`<text x="${fixed(x(t))}" y="${M.top + PH + 17}" text-anchor="middle">${seconds(t)}</text>`);
  }
  endpoints.forEach((endpoint, i) => {
    const color = COLORS[i % COLORS.length] as string;
    const line = points
      .filter((p) => p.endpoint === endpoint)
      .sort((a, b) => a.atMs - b.atMs)
      .map((p) => `${fixed(x(p.atMs))},${fixed(y(p.p95))}`)
      .join(' ');
    out.push(
      `<polyline data-series="${escapeXml(endpoint)}" points="${line}" fill="none" stroke="${color}" stroke-width="1.5"/>`,
      `<rect x="${M.left + i * 150}" y="32" width="12" height="12" fill="${color}"/><text x="${M.left + i * 150 + 17}" y="42">${escapeXml(endpoint)}</text>`,
    );
  });
  const title = 'Latency over time: p95 per endpoint and column of time (ms)';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="latency-chart" role="img" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui, sans-serif" font-size="12">
<title>${title}</title>
<rect width="${W}" height="${H}" fill="#fff"/>
<text x="${M.left}" y="20" font-size="14" font-weight="600">${title}</text>
${out.join('\n')}
<line x1="${M.left}" x2="${M.left + PW}" y1="${M.top + PH}" y2="${M.top + PH}" stroke="#57606a"/>
<text x="${M.left + PW / 2}" y="${H - 4}" text-anchor="middle">time since the first request</text>
</svg>
`;
}
