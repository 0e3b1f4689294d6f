// The limiter drawn from the rate-limit probe's own record of every send (ProbeResult.timeline):
// accepted and 429 answers stacked in narrow columns of time, and the RateLimit remaining value the
// target announced, so a person sees the window close and open again (or the bucket trickle back).
// k6's dashboard charts the same requests at one point a second at best, which flattens a 1 s
// window into a line; these columns are the run's length / 240, whatever its length. Pure and
// k6-safe: handleSummary writes it as k6-rate-limit.limiter.svg, and index.html inlines it.
import type { TimelinePoint } from '../limit-probe.ts';
import { escapeXml } from './junit.ts';

export interface LimiterFigures {
  shape?: string;
  burst?: number;
  ratePerSecond?: number;
  limitPerWindow?: number;
  windowSeconds?: number;
}

/** The picture's file name beside the script's other reports. */
export function limiterFileName(script: string): string {
  return `k6-${script}.limiter.svg`;
}

const COLUMNS = 240;
const W = 960;
const H = 330;
const M = { left: 56, right: 64, top: 58, bottom: 40 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;
const COLOR = {
  accepted: '#1a7f37',
  limited: '#cf222e',
  other: '#6e7781',
  remaining: '#0969da',
  grid: '#d0d7de',
};

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The timeline of a report's analysis (read back from JSON), or undefined when it has none. */
export function timelineOf(analysis: Record<string, unknown> | undefined): TimelinePoint[] | undefined {
  const raw = analysis?.timeline;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const points: TimelinePoint[] = [];
  for (const p of raw as Record<string, unknown>[]) {
    if (typeof p !== 'object' || p === null) return undefined;
    if (![p.atMs, p.accepted, p.limited, p.other].every(isCount)) return undefined;
    points.push({
      atMs: p.atMs as number,
      accepted: p.accepted as number,
      limited: p.limited as number,
      other: p.other as number,
      ...(isCount(p.remaining) ? { remaining: p.remaining } : {}),
    });
  }
  return points;
}

/** The measured figures of a report's analysis.limit, as far as they are numbers. */
export function figuresOf(analysis: Record<string, unknown> | undefined): LimiterFigures {
  const limit = (analysis?.limit ?? {}) as Record<string, unknown>;
  const figures: LimiterFigures = {};
  if (typeof limit.shape === 'string') figures.shape = limit.shape;
  for (const key of ['burst', 'ratePerSecond', 'limitPerWindow', 'windowSeconds'] as const) {
    if (isCount(limit[key])) figures[key] = limit[key] as number;
  }
  return figures;
}

/** 1, 2 or 5 times a power of ten, so that about `ticks` steps cover `range`. */
export function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * power) return m * power;
  return 10 * power;
}

export const fixed = (n: number) => String(Math.round(n * 10) / 10);

export function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${Math.round(s * 100) / 100} s`;
}

export function measuredText(f: LimiterFigures): string {
  const parts: string[] = [];
  if (f.burst !== undefined) parts.push(`burst ${f.burst}`);
  if (f.limitPerWindow !== undefined && f.windowSeconds !== undefined)
    parts.push(`${f.limitPerWindow} per ${f.windowSeconds} s`);
  if (f.ratePerSecond !== undefined) parts.push(`${f.ratePerSecond} req/s`);
  if (f.shape) parts.push(f.shape === 'window' ? 'a window' : f.shape);
  return parts.length ? `measured: ${parts.join(', ')}` : 'measured: nothing pinned down';
}

interface Column {
  accepted: number;
  limited: number;
  other: number;
  remaining?: number;
}

export function renderLimiterSvg(timeline: readonly TimelinePoint[], figures: LimiterFigures = {}): string {
  // A loop, not a spread: a timeline of 300,000 points overflows the call stack as arguments.
  const endMs = timeline.reduce((most, p) => Math.max(most, p.atMs), 1) * 1.02;
  const columnMs = endMs / COLUMNS;
  const columns: Column[] = Array.from({ length: COLUMNS }, () => ({ accepted: 0, limited: 0, other: 0 }));
  for (const p of timeline) {
    const c = columns[Math.min(COLUMNS - 1, Math.floor(p.atMs / columnMs))] as Column;
    c.accepted += p.accepted;
    c.limited += p.limited;
    c.other += p.other;
    // The most left in the column: the moment the allowance came back shows, not the burst using it.
    if (p.remaining !== undefined) c.remaining = Math.max(c.remaining ?? p.remaining, p.remaining);
  }
  const highest = Math.max(1, ...columns.map((c) => c.accepted + c.limited + c.other));
  const countStep = Math.max(1, niceStep(highest, 4));
  const maxCount = countStep * Math.ceil(highest / countStep);
  const remainingValues = columns.flatMap((c) => (c.remaining === undefined ? [] : [c.remaining]));
  const rStep = Math.max(1, niceStep(Math.max(1, ...remainingValues), 4));
  const maxRemaining = rStep * Math.ceil(Math.max(1, ...remainingValues) / rStep);
  const cw = PW / COLUMNS;
  const x = (col: number) => M.left + col * cw;
  const y = (count: number) => M.top + PH - (count / maxCount) * PH;
  const yr = (r: number) => M.top + PH - (r / maxRemaining) * PH;

  const out: string[] = [];
  for (let v = 0; v <= maxCount; v += countStep) {
    out.push(
      `<line x1="${M.left}" x2="${M.left + PW}" y1="${fixed(y(v))}" y2="${fixed(y(v))}" stroke="${COLOR.grid}"/>`,
      `<text x="${M.left - 6}" y="${fixed(y(v) + 4)}" text-anchor="end">${v}</text>`,
    );
  }
  const timeStep = niceStep(endMs, 8);
  for (let t = 0; t <= endMs; t += timeStep) {
    const tx = M.left + (t / endMs) * PW;
    out.push(
      `<line x1="${fixed(tx)}" x2="${fixed(tx)}" y1="${M.top + PH}" y2="${M.top + PH + 4}" stroke="#57606a"/>`,
      `<text x="${fixed(tx)}" y="${M.top + PH + 17}" text-anchor="middle">${seconds(t)}</text>`,
    );
  }
  const bars = { accepted: [] as string[], limited: [] as string[], other: [] as string[] };
  columns.forEach((c, i) => {
    let base = 0;
    for (const kind of ['accepted', 'limited', 'other'] as const) {
      if (c[kind] === 0) continue;
      const top = y(base + c[kind]);
      bars[kind].push(
        `<rect x="${fixed(x(i))}" y="${fixed(top)}" width="${fixed(Math.max(1, cw - 0.6))}" height="${fixed(y(base) - top)}"/>`,
      );
      base += c[kind];
    }
  });
  const total = (kind: 'accepted' | 'limited' | 'other') => timeline.reduce((n, p) => n + p[kind], 0);
  out.push(
    `<g class="accepted" data-series="accepted" data-count="${total('accepted')}" fill="${COLOR.accepted}">${bars.accepted.join('')}</g>`,
    `<g class="limited" data-series="429" data-count="${total('limited')}" fill="${COLOR.limited}">${bars.limited.join('')}</g>`,
    `<g class="other" data-series="other" data-count="${total('other')}" fill="${COLOR.other}">${bars.other.join('')}</g>`,
  );
  if (remainingValues.length) {
    const path = columns
      .map((c, i) => (c.remaining === undefined ? '' : `${fixed(x(i) + cw / 2)},${fixed(yr(c.remaining))}`))
      .filter(Boolean)
      .join(' ');
    for (let v = 0; v <= maxRemaining; v += rStep) {
      out.push(`<text x="${M.left + PW + 6}" y="${fixed(yr(v) + 4)}" fill="${COLOR.remaining}">${v}</text>`);
    }
    out.push(
      `<polyline data-series="remaining" points="${path}" fill="none" stroke="${COLOR.remaining}" stroke-width="1.5"/>`,
    );
  }
  const legend = [
    [COLOR.accepted, 'accepted'],
    [COLOR.limited, '429 (limited)'],
    [COLOR.other, 'other refusals'],
    ...(remainingValues.length ? [[COLOR.remaining, 'RateLimit remaining (right axis)']] : []),
  ]
    .map(
      ([color, label], i) =>
        `<rect x="${M.left + i * 190}" y="32" width="12" height="12" fill="${color}"/><text x="${M.left + i * 190 + 17}" y="42">${label}</text>`,
    )
    .join('');
  const title = `Rate limiter over time: requests per ${seconds(columnMs)} column; ${measuredText(figures)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="limiter-chart" role="img" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui, sans-serif" font-size="12">
<title>${escapeXml(title)}</title>
<rect width="${W}" height="${H}" fill="#fff"/>
<text x="${M.left}" y="20" font-size="14" font-weight="600">${escapeXml(title)}</text>
${legend}
${out.join('\n')}
<line x1="${M.left}" x2="${M.left + PW}" y1="${M.top + PH}" y2="${M.top + PH}" stroke="#57606a"/>
<text x="${M.left + PW / 2}" y="${H - 4}" text-anchor="middle">time since the probe started</text>
</svg>
`;
}
