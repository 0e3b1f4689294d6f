// The dashboard layout stays in step with the scripts: every metric a panel queries is k6's own or
// one the script defines, every endpoint tag one its requests carry, and no panel hands a legend to
// the wrong series (the dashboard gives legends by position to the series it found, so only the
// last series of a panel may be one a run can lack).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardEnvironment } from '../../src/launcher/dashboard.ts';
import {
  DASHBOARD_TAGS,
  dashboardConfig,
  ENDPOINTS,
  LIMITED_SERIES,
} from '../../src/launcher/dashboard-config.ts';
import { LOAD_SCRIPTS } from '../../src/launcher/scripts.ts';
import { ROOT } from '../load/cli-run.ts';

const K6_METRICS = ['http_reqs', 'http_req_duration', 'http_req_failed', 'vus', 'data_received', 'data_sent'];
/** Series every run of the script has (k6's own, and metrics the script adds on every request). */
const ALWAYS =
  /^(http_reqs|http_req_duration|http_req_failed|vus|data_received|data_sent|release_errors|release_user_errors|flag_cache_polls)\[\?!tags/;

function scriptText(script: keyof typeof LOAD_SCRIPTS): string {
  const lib = readFileSync(join(ROOT, 'load/lib/k6/http.ts'), 'utf8');
  const plan = readFileSync(join(ROOT, 'load/lib/release-plan.ts'), 'utf8');
  return `${readFileSync(join(ROOT, LOAD_SCRIPTS[script].file), 'utf8')}\n${lib}\n${plan}`;
}

describe('the dashboard layout of each script', () => {
  for (const script of Object.keys(LOAD_SCRIPTS) as (keyof typeof LOAD_SCRIPTS)[]) {
    it(`${script}: queries metrics and endpoints the script has`, () => {
      const text = scriptText(script);
      const defined = new Set([
        ...K6_METRICS,
        ...[...text.matchAll(/new (?:Counter|Rate|Trend|Gauge)\('([a-z0-9_]+)'\)/g)].map((m) => m[1]),
        ...[...text.matchAll(/export const USER_ERRORS = '([a-z_]+)'/g)].map((m) => m[1]),
      ]);
      const config = dashboardConfig(script);
      const panels = config.tabs.flatMap((t) => t.sections.flatMap((s) => s.panels));
      for (const panel of panels) {
        for (const { query } of panel.series) {
          const metric = /^([a-z0-9_]*)\[/.exec(query)?.[1];
          if (metric) expect(defined, `${panel.title}: ${query}`).toContain(metric);
          const endpoint = /tags\.endpoint == '([^']+)'/.exec(query)?.[1];
          if (endpoint) expect(text, `${panel.title}: ${query}`).toContain(`'${endpoint}'`);
        }
        // Legends go by position to the series found: only the last may be missing from a run.
        panel.series.slice(0, -1).forEach(({ query }) => {
          const sameEndpoints = /tags\.endpoint == '(customers|user-me|feature-flags|auth-token)'/.test(
            query,
          );
          expect(ALWAYS.test(query) || sameEndpoints, `${panel.title}: ${query} may be empty`).toBe(true);
        });
      }
      expect(ENDPOINTS[script].length).toBeGreaterThan(0);
      expect(panels.map((p) => p.title)).toContain('Request rate');
    });
  }

  // The dashboard's unit is its metric's type and aggregate (xk6-dashboard's Metrics.unit): a Rate is
  // a percent axis, which a clean run's zeros stretched to 0-10000 %; an event counter's rate drew
  // flat 1/s bands. Issue 33.
  it('every chart uses its metric unit: no Rate drawn, events that come now and then drawn as counts', () => {
    for (const script of Object.keys(LOAD_SCRIPTS) as (keyof typeof LOAD_SCRIPTS)[]) {
      const text = scriptText(script);
      const rates = new Set([
        'http_req_failed',
        ...[...text.matchAll(/new Rate\(([A-Za-z_']+)\)/g)].map((m) => m[1]?.replace(/'/g, '')),
        ...[...text.matchAll(/export const USER_ERRORS = '([a-z_]+)'/g)].map((m) => m[1]),
      ]);
      // Every tab's charts, k6's own included: its http_req_failed chart drew 0-10000 % (seen rendered).
      const charts = dashboardConfig(script)
        .tabs.flatMap((t) => t.sections.flatMap((s) => s.panels))
        .filter((p) => p.kind === 'chart');
      for (const panel of charts) {
        for (const { query } of panel.series) {
          const metric = /^([a-z0-9_]*)\[/.exec(query)?.[1] ?? '';
          expect(rates.has(metric), `${script} ${panel.title}: ${query} draws a Rate`).toBe(false);
          if (/violations|renewals|rate_limited|errors/.test(metric))
            expect(query, `${script} ${panel.title}`).toMatch(/&& count\]$/);
        }
      }
    }
  });

  // A counter no request added to has no series: its panel read "no data" in every clean run (seen
  // rendered: renewals, 429s, violations, errors). The scripts add 0 when nothing happened.
  it('every event counter a chart draws is added to on every request, 0 when nothing happened', () => {
    for (const script of Object.keys(LOAD_SCRIPTS) as (keyof typeof LOAD_SCRIPTS)[]) {
      const text = scriptText(script);
      const [own] = dashboardConfig(script).tabs;
      for (const panel of own?.sections.flatMap((s) => s.panels) ?? []) {
        for (const { query } of panel.series) {
          const metric = /^([a-z0-9_]*)\[\?!tags && count\]$/.exec(query)?.[1];
          if (!metric) continue;
          const variable = new RegExp(`const (\\w+) = new Counter\\('${metric}'\\)`).exec(text)?.[1];
          expect(variable, `${script}: ${metric} is a Counter of the script`).toBeDefined();
          expect(text, `${script} ${panel.title}: ${metric}`).toMatch(
            new RegExp(`${variable}\\.add\\([^;]*\\? 1 : 0`),
          );
        }
      }
    }
  });

  it("the rate-limit probe's first tab charts its 429 answers; every script has a 429 chart", () => {
    const [limiter] = dashboardConfig('rate-limit').tabs;
    expect(limiter?.sections[0]?.panels[0]?.series).toContainEqual(LIMITED_SERIES);
    for (const script of Object.keys(LOAD_SCRIPTS) as (keyof typeof LOAD_SCRIPTS)[]) {
      const series = dashboardConfig(script).tabs.flatMap((t) =>
        t.sections.flatMap((s) => s.panels.flatMap((p) => p.series)),
      );
      expect(series).toContainEqual(LIMITED_SERIES);
    }
  });

  it('asks k6 for the sub-metrics the layout queries, a point a second, and our layout', () => {
    const env = dashboardEnvironment('/r', 'release', { live: false, configFile: '/tmp/x.json' });
    expect(env).toMatchObject({
      K6_WEB_DASHBOARD_TAGS: DASHBOARD_TAGS.join(','),
      K6_WEB_DASHBOARD_PERIOD: '1s',
      XK6_DASHBOARD_CONFIG: '/tmp/x.json',
      K6_WEB_DASHBOARD_EXPORT: '/r/k6-release.html',
    });
    for (const tag of ['endpoint', 'status']) expect(DASHBOARD_TAGS).toContain(tag);
  });
});
