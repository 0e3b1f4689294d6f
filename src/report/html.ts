// reports/index.html: one self-contained page (inline style and script, no URL fetched, a CSP that
// forbids any) rendered on the server side, so it reads even with scripts off. Every value from a
// run is HTML-escaped; bodies are capped for display (results.json keeps the recorded length).

import { createHash } from 'node:crypto';
import { htmlText } from '../../common/safe-text.ts';
import { latencyOf, renderLatencySvg } from '../../load/lib/summary/latency-chart.ts';
import { figuresOf, renderLimiterSvg, timelineOf } from '../../load/lib/summary/limiter-chart.ts';
import type { RecordedExchange } from '../client/index.ts';
import { SCRIPT, STYLE } from './html-assets.ts';
import type { LoadRunEntry } from './load-run-entry.ts';
import { failingExchange, reproductionOf, reproductionText } from './reproduce.ts';
import { EXIT_MEANINGS, isAskedSubset, subsetAreas } from './results.ts';
import { routeSchemesOf, type schemeText } from './route-schemes.ts';
import type { CheckResult, ConformanceResults, RuleResult, StatusChange } from './types.ts';
import { verdictOf } from './verdict.ts';

/** Display caps: a failing check shows more of its evidence than a passing one. */
export const BODY_CAP = { failed: 16 * 1024, other: 2 * 1024 } as const;
/** How many caps long a JSON body may be and still be pretty-printed (a page of customers is). */
const PRETTY_WITHIN_CAPS = 16;
export const EXCHANGES_SHOWN = { failed: 50, other: 5 } as const;

/** Escaped for HTML text and quoted attributes, control characters shown (the one HTML escaper). */
export const escapeHtml = htmlText;
const e = escapeHtml;

/** A CSP source for an inline element's exact text: the browser runs only what it hashes to. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page's Content-Security-Policy: nothing fetched, no base URL, no form, and only the page's
 * own inline style and script, pinned by hash, so a payload that got past the escaping still
 * could not run or restyle the page. A section that adds an inline element adds its text here.
 */
export function contentSecurityPolicy(inline: {
  styles: readonly string[];
  scripts: readonly string[];
}): string {
  return [
    "default-src 'none'",
    `style-src ${inline.styles.map(cspHash).join(' ')}`,
    `script-src ${inline.scripts.map(cspHash).join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Pretty JSON when the body is JSON, then cut to the cap with a note of what was left out. A body
 * many times the cap is shown as it came: its pretty form would be built whole to show its start
 * (a hostile target's 60 KB error bodies, each shown in 2 KiB).
 */
export function displayBody(body: string, cap: number): string {
  let text = body;
  if (body.length <= Math.min(256 * 1024, PRETTY_WITHIN_CAPS * cap)) {
    try {
      text = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      // not JSON: shown as recorded
    }
  }
  if (text.length <= cap) return text;
  return `${text.slice(0, cap)}\n… [${text.length - cap} more characters not shown; see results.json]`;
}

function headers(h: Record<string, string> | undefined): string {
  if (!h || !Object.keys(h).length) return '';
  return Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function exchangeHtml(x: RecordedExchange, n: number, cap: number, failing = false): string {
  const status = x.status === undefined ? 'no response' : `HTTP ${x.status}`;
  const request = [
    headers(x.requestHeaders),
    x.requestBody === undefined ? '' : `\n${displayBody(x.requestBody, cap)}`,
  ]
    .join('')
    .trim();
  const response = x.error
    ? `error: ${x.error}`
    : [
        headers(x.responseHeaders),
        x.responseBody === undefined ? '' : `\n${displayBody(x.responseBody, cap)}`,
      ]
        .join('')
        .trim();
  const mark = failing ? '<strong class="text-status failed">the failing exchange:</strong> ' : '';
  return `<div class="exchange${failing ? ' failing' : ''}"${failing ? ' data-failing="true"' : ''}><h4>${mark}#${n} ${e(x.method)} ${e(x.url)} → ${e(status)} <span class="muted">(${Math.round(x.durationMs)} ms, ${e(x.startedAt)})</span></h4>
<div class="cols"><div><strong>request</strong><pre class="request">${e(request || '(no headers, no body)')}</pre></div>
<div><strong>response</strong><pre class="response">${e(response || '(empty)')}</pre></div></div></div>`;
}

function statusBadge(status: string, soft?: boolean, level?: string): string {
  if (soft && level === 'ADVICE')
    return '<span class="badge soft" title="advice the spec does not state; never fails the run">failed (advice, not the spec)</span>';
  if (soft)
    return '<span class="badge soft" title="a SHOULD rule; fails the run only when strict">failed (SHOULD, non-strict)</span>';
  return `<span class="badge ${e(status)}">${e(status)}</span>`;
}

const checkAnchor = (id: string) => `check-${encodeURIComponent(id)}`;
const ruleAnchor = (id: string) => `rule-${encodeURIComponent(id)}`;

/** The generated requests' seed and the command that sends them again, in the header. */
function generationHtml(results: ConformanceResults): string {
  const g = results.generation;
  if (!g) return '';
  return `<p>Generated requests: seed <strong class="mono">${g.seed}</strong>, budget ${g.budget} · the same requests again: <code class="replay-run">${e(g.replay)}</code></p>`;
}

function checkHtml(c: CheckResult, apiBaseUrl: string): string {
  const failed = c.status === 'failed';
  const cap = failed ? BODY_CAP.failed : BODY_CAP.other;
  const limit = failed ? EXCHANGES_SHOWN.failed : EXCHANGES_SHOWN.other;
  const found = failed ? failingExchange(c) : undefined;
  const failing = found?.known ? found : undefined;
  // The failing exchange is always shown, first, whatever the display limit.
  const order = c.exchanges.map((x, i) => ({ x, i }));
  if (failing) order.unshift(...order.splice(failing.index, 1));
  const shown = order.slice(0, limit);
  const more = c.exchanges.length - shown.length;
  const reproduce = found
    ? `<p><strong>${found.known ? 'reproduce the failing exchange with' : "reproduce the check's last request before the failure with"}</strong> <span class="muted">(with the variables of your .env exported: <code>set -a; . ./.env; set +a</code>)</span></p><pre class="reproduce">${e(reproductionText(reproductionOf(found.exchange, apiBaseUrl)))}</pre>`
    : '';
  const replay = c.replay
    ? `<p><strong>run the case again with</strong></p><pre class="reproduce replay">${e(c.replay)}</pre>`
    : '';
  const rules = c.rules.map((r) => `<a href="#${e(ruleAnchor(r))}">${e(r)}</a>`).join(', ');
  return `<details class="check ${e(c.status)}" id="${e(checkAnchor(c.id))}" data-kind="check" data-area="${e(c.area)}" data-status="${e(c.status)}">
<summary>${statusBadge(c.status, c.nonStrict, c.level)} <span class="mono">${e(c.id)}</span> ${e(c.title)} <span class="muted">[${rules}] · ${e(c.area)} · ${c.level} · ${Math.round(c.durationMs)} ms · ${c.exchanges.length} exchange${c.exchanges.length === 1 ? '' : 's'}</span></summary>
<div class="body">${c.reason ? `<pre class="reason">${e(c.reason)}</pre>` : ''}${reproduce}${replay}${shown.map(({ x, i }) => exchangeHtml(x, i + 1, cap, i === failing?.index)).join('\n')}${more > 0 ? `<p class="muted">${more} more exchanges in results.json</p>` : ''}${c.exchanges.length ? '' : '<p class="muted">no exchange recorded</p>'}</div>
</details>`;
}

function ruleRow(r: RuleResult): string {
  const checks = r.checks.length
    ? r.checks.map((id) => `<a class="mono" href="#${e(checkAnchor(id))}">${e(id)}</a>`).join(', ')
    : `<span class="muted">${e(r.note ?? 'no check covers this rule')}</span>`;
  return `<tr id="${e(ruleAnchor(r.id))}" data-kind="rule" data-area="${e(r.area)}" data-status="${e(r.status)}"><td class="id">${e(r.id)}</td><td>${r.level}</td><td>${statusBadge(r.status)}</td><td>${e(r.text)} <span class="muted">(${e(r.section)})</span></td><td>${checks}</td></tr>`;
}

function ruleMap(results: ConformanceResults): string {
  return results.scope.areas
    .map((area) => {
      const chips = results.rules
        .filter((r) => r.area === area)
        .map(
          (r) =>
            `<a class="chip ${e(r.status)}" href="#${e(ruleAnchor(r.id))}" title="${e(`${r.id} ${r.status}: ${r.text}`)}" data-area="${e(area)}" data-status="${e(r.status)}">${e(r.id)}</a>`,
        )
        .join('');
      return `<div class="area">${e(area)}</div><div class="chips">${chips || '<span class="muted">no rule in this run</span>'}</div>`;
    })
    .join('\n');
}

function totalsHtml(results: ConformanceResults): string {
  const { checks, rules, mustFailures, shouldFailures, adviceFailures } = results.totals;
  const n = (value: number, label: string, cls: string, key: string) =>
    `<span class="n text-status ${cls}" data-total="${key}">${value}<small>${label}</small></span>`;
  return `<section class="totals">
<div class="card"><h3>Checks</h3>${n(checks.passed, 'passed', 'passed', 'checks-passed')}${n(checks.failed, 'failed', 'failed', 'checks-failed')}${n(checks.nonStrict, 'of them SHOULD (non-strict) or advice', 'skipped', 'checks-non-strict')}${n(checks.skipped, 'skipped', 'skipped', 'checks-skipped')}</div>
<div class="card"><h3>Rules</h3>${n(rules.passed, 'passed', 'passed', 'rules-passed')}${n(rules.failed, 'failed', 'failed', 'rules-failed')}${n(rules.skipped, 'skipped', 'skipped', 'rules-skipped')}${n(rules.uncovered, 'uncovered', 'uncovered', 'rules-uncovered')}</div>
<div class="card"><h3>Failures by level</h3>${n(mustFailures, 'MUST', 'failed', 'must-failures')}${n(shouldFailures, results.strict ? 'SHOULD (strict)' : 'SHOULD (non-strict)', 'skipped', 'should-failures')}${n(adviceFailures, 'advice (not the spec)', 'skipped', 'advice-failures')}</div>
</section>`;
}

function changesHtml(results: ConformanceResults): string {
  if (!results.history) return '';
  const row = (c: StatusChange) =>
    `<li><a class="mono" href="#${e(checkAnchor(c.id))}">${e(c.id)}</a> ${e(c.title)}: ${e(c.from)} → <strong class="text-status ${e(c.to)}">${e(c.to)}</strong></li>`;
  const list = results.history.changes.length
    ? `<ul>${results.history.changes.map(row).join('')}</ul>`
    : '<p class="muted">No check changed status.</p>';
  const against = results.history.pinned
    ? `the baseline ${e(results.history.pinned)}`
    : 'the last complete run';
  return `<h2>Changed since ${against} <span class="muted">(${e(results.history.previousStartedAt)})</span></h2>${list}`;
}

function filtersHtml(results: ConformanceResults): string {
  const options = results.scope.areas.map((a) => `<option value="${e(a)}">${e(a)}</option>`).join('');
  const box = (s: string) =>
    `<label><input type="checkbox" name="status" value="${s}" checked> <span class="text-status ${s}">${s}</span></label>`;
  return `<div class="filters"><label>area <select id="filter-area"><option value="all">all areas</option>${options}</select></label>
${['passed', 'failed', 'skipped', 'uncovered'].map(box).join('\n')}
<span class="count">showing <span id="shown-rules">${results.rules.length}</span> rules, <span id="shown-checks">${results.checks.length}</span> checks</span></div>`;
}

function uncheckedHtml(results: ConformanceResults): string {
  const { unchecked } = results.coverage;
  if (!unchecked.length) return '';
  const items = unchecked
    .map(
      (u) =>
        `<li><a class="mono" href="#${e(ruleAnchor(u.id))}">${e(u.id)}</a> (${u.level}): ${e(u.why)}</li>`,
    )
    .join('');
  return `<h2>Rules not checked <span class="count">(${unchecked.length})</span>, and what would check them</h2><ul class="unchecked">${items}</ul>`;
}

function routeSchemesHtml(results: ConformanceResults): string {
  const rows = routeSchemesOf(results.checks);
  if (!rows.length) return '';
  const cell = (o: Parameters<typeof schemeText>[0]) =>
    `<td>${o ? `<span class="text-status ${o.state === 'took' ? 'passed' : o.state === 'failed' ? 'failed' : 'skipped'}">${e(o.state)}</span>${o.detail ? ` <span class="muted">${e(o.detail)}</span>` : ''}` : '-'}</td>`;
  const body = rows.map(
    (r) => `<tr><td class="mono">${e(r.route)}</td>${cell(r.apiKey)}${cell(r.bearer)}</tr>`,
  );
  return `<h2>Schemes each route took</h2>
<table class="rules"><thead><tr><th>route</th><th>API key</th><th>bearer token</th></tr></thead>
<tbody>${body.join('\n')}</tbody></table>`;
}

const LOAD_BADGE: Record<string, string> = { passed: 'passed', failed: 'failed' };

/** The load runs of this folder against this target (load-runs.ts), with links to their reports. */
function loadRunsHtml(runs: readonly LoadRunEntry[]): string {
  if (!runs.length) return '';
  const row = (r: LoadRunEntry) => {
    const links = [
      r.dashboard
        ? `<a class="dashboard" href="${e(r.dashboard)}">k6 dashboard report</a>`
        : '<span class="muted">no dashboard report</span>',
      `<a href="${e(r.markdown)}">summary</a>`,
    ].join(' · ');
    const reason = r.verdictReason ? `<br><span class="muted">${e(r.verdictReason)}</span>` : '';
    return `<tr data-kind="load-run" data-script="${e(r.script)}" data-verdict="${e(r.verdict)}"><td class="mono">${e(r.script)}</td><td><span class="badge ${LOAD_BADGE[r.verdict] ?? 'uncovered'}">${e(r.verdict)}</span>${reason}</td><td>${e(r.finishedAt)}</td><td>${(r.durationMs / 1000).toFixed(1)} s</td><td>${links}</td></tr>`;
  };
  return `<h2 id="load-runs">Load runs against this target <span class="count">(${runs.length})</span></h2>
<p class="muted">k6 runs whose reports sit in this folder (npm run load:*), the latest first.</p>
<table class="load-runs"><thead><tr><th>script</th><th>verdict</th><th>finished</th><th>took</th><th>reports</th></tr></thead>
<tbody>${runs.map(row).join('\n')}</tbody></table>
${runs.map(limiterHtml).join('\n')}
${runs.map(latencyHtml).join('\n')}`;
}

/** A split release run's p95 per endpoint over time (latency-chart.ts: numbers only). */
function latencyHtml(run: LoadRunEntry): string {
  const points = latencyOf(run.analysis);
  if (!points) return '';
  return `<h3 id="latency-${e(run.script)}">Latency over time <span class="muted">(${e(run.script)}, ${e(run.finishedAt)})</span></h3>
<div class="limiter" data-kind="latency">${renderLatencySvg(points)}</div>`;
}

/** The rate-limit probe's picture (limiter-chart.ts: numbers only) with its verdicts beside it. */
function limiterHtml(run: LoadRunEntry): string {
  const timeline = timelineOf(run.analysis);
  if (!timeline) return '';
  const verdicts = run.verdicts
    .map(
      (v) =>
        `<li><span class="text-status ${v.ok === false ? 'failed' : v.ok ? 'passed' : 'skipped'}">${v.ok === null ? 'undecided' : v.ok ? 'pass' : 'FAIL'}</span> ${e(v.name)}: ${e(v.detail)}</li>`,
    )
    .join('');
  const figures = run.figures
    .filter((f) => /^(shape|burst|sustained rate|window|declared)$/.test(f.label))
    .map((f) => `<li>${e(f.label)}: ${e(f.value)}</li>`)
    .join('');
  return `<h3 id="limiter-${e(run.script)}">The limiter over time <span class="muted">(${e(run.script)}, ${e(run.finishedAt)})</span></h3>
<div class="limiter" data-kind="limiter">${renderLimiterSvg(timeline, figuresOf(run.analysis))}<ul class="limiter-verdicts">${figures}${verdicts}</ul></div>`;
}

export function renderHtml(results: ConformanceResults, loadRuns: readonly LoadRunEntry[] = []): string {
  const failing = results.checks.filter((c) => c.status === 'failed');
  const others = results.checks.filter((c) => c.status !== 'failed');
  const t = results.target;
  const problems = results.problems.length
    ? `<div class="problems"><strong>Run problems</strong><ul>${results.problems.map((p) => `<li>${e(p)}</li>`).join('')}</ul></div>`
    : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(contentSecurityPolicy({ styles: [STYLE], scripts: [SCRIPT] }))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance of ${e(t.name)}: exit code ${results.exitCode}</title>
<style>${STYLE}</style></head>
<body>
<header class="exit-${results.exitCode}"><h1>${e(verdictOf(results))}</h1>
<p>Target <strong>${e(t.name)}</strong> · ${e(t.apiBaseUrl)} · ${e(t.petstoreBaseUrl)}</p>
<p>Started ${e(results.startedAt)} · ${(results.durationMs / 1000).toFixed(1)} s · strict ${results.strict ? 'on' : 'off'}${isAskedSubset(results) ? ` · subset run: ${e(subsetAreas(results).join(', '))}${results.scope.selection ? ` (${e(results.scope.selection)})` : ''}` : ''} · exit code ${results.exitCode}: ${e(EXIT_MEANINGS[results.exitCode])} · ${e(results.tool.name)} ${e(results.tool.version)}</p>${generationHtml(results)}</header>
<main>
${totalsHtml(results)}
${problems}
${loadRunsHtml(loadRuns)}
<h2>Rules at a glance</h2>
<div class="map">${ruleMap(results)}</div>
${filtersHtml(results)}
<h2>Failing checks <span class="count">(${failing.length})</span></h2>
${failing.length ? failing.map((c) => checkHtml(c, results.target.apiBaseUrl)).join('\n') : '<p class="muted">none</p>'}
${changesHtml(results)}
${uncheckedHtml(results)}
${routeSchemesHtml(results)}
<h2>Rules <span class="count">(${results.rules.length})</span></h2>
<table class="rules"><thead><tr><th>rule</th><th>level</th><th>status</th><th>the spec says</th><th>checks</th></tr></thead>
<tbody>${results.rules.map(ruleRow).join('\n')}</tbody></table>
<h2>Other checks <span class="count">(${others.length})</span></h2>
${others.map((c) => checkHtml(c, results.target.apiBaseUrl)).join('\n')}
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
