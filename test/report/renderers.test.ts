// summary.md, the console table and index.html (as text) over the fixed fixture of results.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderConsoleTable } from '../../src/report/console-table.ts';
import { diffRuns } from '../../src/report/history.ts';
import { BODY_CAP, displayBody, escapeHtml, renderHtml } from '../../src/report/html.ts';
import { SCRIPT, STYLE } from '../../src/report/html-assets.ts';
import { buildResults } from '../../src/report/results.ts';
import { mdText, renderSummary } from '../../src/report/summary-md.ts';
import type { ConformanceResults } from '../../src/report/types.ts';
import { FIXTURE_CHECKS, fixtureInput, fixtureResults, HUGE_BODY, UNICODE_TITLE } from './fixture.ts';

const results = fixtureResults();

/** The previous run: TOK-WRONG passed, PAG-EDGES failed, FLG-FRESH skipped; GONE existed. */
function previousRun(): ConformanceResults {
  const checks = FIXTURE_CHECKS.map((c) => {
    if (c.id === 'TOK-WRONG') return { ...c, status: 'passed' as const, reason: undefined };
    if (c.id === 'PAG-EDGES') return { ...c, status: 'failed' as const, reason: 'was broken' };
    if (c.id === 'FLG-FRESH') return { ...c, status: 'skipped' as const, reason: 'no control' };
    return c;
  });
  const gone = { ...(FIXTURE_CHECKS[0] as (typeof FIXTURE_CHECKS)[number]), id: 'TOK-GONE', title: 'gone' };
  return buildResults(fixtureInput({ checks: [...checks, gone] }));
}

describe('summary.md', () => {
  const md = renderSummary(results);

  it('leads with the verdict and the totals', () => {
    // The non-strict SHOULD failure is named, so the verdict adds up to the 3 failed checks.
    expect(md.split('\n')[0]).toBe(
      '# Conformance of `staging`: 2 checks failed, 1 advice not followed (not the spec); 8 of 28 rules checked; 20 not checked (exit code 1)',
    );
    // passed, failed, of them SHOULD (non-strict), skipped
    expect(md).toContain('| checks | 3 | 3 | 1 | 1 | |');
  });

  it('puts failing rules first with their reasons, advice not followed apart, then skipped checks with why', () => {
    const failing = md.indexOf('## Failing rules');
    const should = md.indexOf('## Advice not followed');
    const skipped = md.indexOf('## Skipped checks');
    const areas = md.indexOf('## Rules by area');
    expect(failing).toBeGreaterThan(0);
    expect(failing < should && should < skipped && skipped < areas).toBe(true);
    const failingPart = md.slice(failing, should);
    expect(failingPart).toContain('**TOK-03**');
    expect(failingPart).toContain('**PAG-03**');
    expect(failingPart).toContain('showing\\_items is 3 but the page holds 2 items — «données» ✗');
    expect(failingPart).not.toContain('PAG-13');
    expect(md.slice(should, skipped)).toContain('**PAG-13**');
    expect(md.slice(skipped, areas)).toContain(
      '`FLG-WINDOW` title of FLG-WINDOW: the target offers no control API',
    );
  });

  it('has a table of rules per area, unicode intact', () => {
    for (const area of results.scope.areas) expect(md).toContain(`### ${area}`);
    const one = buildResults(fixtureInput({ filtered: true, checks: FIXTURE_CHECKS.slice(0, 1) }));
    expect(one.rules.filter((r) => r.area === 'auth-token').length).toBeGreaterThan(1);
    const single = buildResults(
      fixtureInput({ filtered: true, checks: FIXTURE_CHECKS.filter((c) => c.id === 'FLG-FRESH') }),
    );
    expect(renderSummary(single)).toContain('### feature-flags (1 rule)\n');
    expect(md).toMatch(/\| PAG-03 \| MUST \| ❌ failed \| `PAG-SHOWING` \|/);
    expect(md).toContain('naïve pagination — ünïcödé ✓ 日本語 🚀');
  });

  it('keeps raw HTML and table breaks out of a line', () => {
    expect(mdText('a | b <script>x</script>\nc')).toBe('a \\| b &lt;script&gt;x&lt;/script&gt; c');
    expect(mdText('y'.repeat(500)).length).toBeLessThan(330);
    expect(md).not.toContain('</script>');
  });

  it('names what changed since the previous run, newly failing first', () => {
    const current = { ...results, history: diffRuns(previousRun(), results) };
    const text = renderSummary(current);
    // Failures first, then what changed.
    expect(text.indexOf('## Failing rules')).toBeLessThan(
      text.indexOf('## Changed since the last complete run'),
    );
    const part = text.slice(
      text.indexOf('## Changed since the last complete run'),
      text.indexOf('## Skipped checks'),
    );
    const lines = part.split('\n').filter((l) => l.startsWith('- '));
    expect(lines[0]).toContain('`TOK-WRONG`');
    expect(lines[0]).toContain('✅ passed → ❌ failed');
    expect(lines[1]).toContain('`PAG-EDGES`');
    expect(lines.map((l) => /`([^`]+)`/.exec(l)?.[1])).toEqual([
      'TOK-WRONG',
      'PAG-EDGES',
      'FLG-FRESH',
      'TOK-GONE',
    ]);
  });

  it('says so when nothing changed, and names run problems', () => {
    expect(renderSummary({ ...results, history: diffRuns(results, results) })).toContain(
      'No check changed status.',
    );
    const problem = buildResults(fixtureInput({ problems: ['unhandled error: socket hang up'] }));
    const text = renderSummary(problem);
    expect(text.split('\n')[0]).toContain('Run problem: the run could not check everything;');
    expect(text).toContain('## Run problems\n\n- unhandled error: socket hang up');
  });
});

describe('history', () => {
  it('ignores checks a filtered run left out, and compares only checks of the same areas', () => {
    const filtered = buildResults(fixtureInput({ filtered: true, checks: FIXTURE_CHECKS.slice(0, 2) }));
    expect(diffRuns(previousRun(), filtered).changes.map((c) => c.id)).toEqual(['TOK-WRONG']);
    const fresh = diffRuns({ ...results, checks: [] }, results).changes;
    expect(fresh.every((c) => c.from === 'absent')).toBe(true);
    expect(fresh[0]?.to).toBe('failed');
  });
});

describe('console table', () => {
  const text = renderConsoleTable(results, ['reports/results.json', 'reports/index.html']);

  it('has a row per area and a total, then the failures, the reports and the exit code', () => {
    // passed, failed, of them SHOULD (non-strict), skipped
    expect(text).toMatch(/auth-token\s+1\s+1\s+0\s+0\n/);
    expect(text).toMatch(/customers-pagination\s+1\s+2\s+1\s+0\n/);
    expect(text).toMatch(/feature-flags\s+1\s+0\s+0\s+1\n/);
    expect(text).toMatch(/total\s+3\s+3\s+1\s+1\n/);
    expect(text).toContain('failed PAG-MALFORMED [PAG-13] (advice, not the spec): page=abc answered 500');
    expect(text).toContain('reports: reports/results.json, reports/index.html');
    // The verdict and the exit code are the last lines.
    expect(text.trimEnd().split('\n').slice(-2)).toEqual([
      '2 checks failed, 1 advice not followed (not the spec); 8 of 28 rules checked; 20 not checked',
      'exit code 1 (a check failed)',
    ]);
  });

  it('exit code 0 says every check passed; 2 names the problem', () => {
    const ok = buildResults(fixtureInput({ checks: FIXTURE_CHECKS.filter((c) => c.status !== 'failed') }));
    expect(renderConsoleTable(ok, [])).toContain('exit code 0 (every check passed)');
    const bad = buildResults(fixtureInput({ problems: ['suites/x.test.ts could not run: boom'] }));
    const out = renderConsoleTable(bad, []);
    expect(out).toContain('run problem: suites/x.test.ts could not run: boom');
    expect(out).toContain('exit code 2 (');
  });
});

describe('index.html as text', () => {
  const html = renderHtml(results);

  it('is self-contained: no external resource, a CSP forbidding any, one script of ours', () => {
    // Only the page's own style and script run: each pinned by its sha256; no base URL, no form.
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const csp = html
      .match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1]
      ?.replace(/&#39;/g, "'");
    expect(csp).toBe(
      `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; base-uri 'none'; form-action 'none'`,
    );
    expect(html).toContain(`<script>${SCRIPT}</script>`);
    expect(html).toContain(`<style>${STYLE}</style>`);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed|base)\b/i);
    expect(html).not.toMatch(/\b(src|href|action)\s*=\s*["']?(https?:|\/\/)/i);
    expect(html.match(/<script\b/gi)).toHaveLength(1);
    expect(html.match(/<\/script>/gi)).toHaveLength(1);
  });

  it('escapes what a target sent: a </script> in a body stays text', () => {
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('caps a 1 MB body for display and keeps unicode', () => {
    expect(HUGE_BODY.length).toBeGreaterThan(1_000_000);
    expect(html.length).toBeLessThan(200_000);
    expect(html).toContain('more characters not shown; see results.json');
    expect(html).toContain(escapeHtml(UNICODE_TITLE));
    const shown = displayBody(HUGE_BODY, BODY_CAP.failed);
    expect(shown.length).toBeLessThan(BODY_CAP.failed + 100);
  });

  it('pretty-prints JSON bodies and shows others as they came', () => {
    expect(displayBody('{"a":1}', 100)).toBe('{\n  "a": 1\n}');
    expect(displayBody('not json', 100)).toBe('not json');
    // Pretty up to 16 caps long; beyond, shown as it came (only its start is shown anyway).
    const long = JSON.stringify({ path: '/'.repeat(1_500) });
    expect(displayBody(long, 100)).toContain('{\n  "path": "///');
    expect(displayBody(JSON.stringify({ path: '/'.repeat(1_700) }), 100)).toMatch(/^\{"path":"\/\/\//);
  });

  it('shows the totals and every rule and check with its status for the filters', () => {
    expect(html).toContain('data-total="checks-failed">3<');
    expect(html).toContain('data-total="rules-uncovered">18<');
    expect(html.match(/data-kind="rule"/g)).toHaveLength(results.rules.length);
    expect(html.match(/data-kind="check"/g)).toHaveLength(results.checks.length);
    expect(html).toContain('failed (advice, not the spec)');
  });

  it('names non-strict SHOULD failures in the verdict: never "every check passed" when one failed', () => {
    const h1 = (r: ConformanceResults) => /<h1>([^<]*)<\/h1>/.exec(renderHtml(r))?.[1];
    expect(h1(results)).toBe(
      '2 checks failed, 1 advice not followed (not the spec); 8 of 28 rules checked; 20 not checked',
    );
    const hard = (c: (typeof FIXTURE_CHECKS)[number]) => c.status === 'failed' && !c.nonStrict;
    const softOnly = buildResults(fixtureInput({ checks: FIXTURE_CHECKS.filter((c) => !hard(c)) }));
    expect(softOnly.exitCode).toBe(0);
    // Unchecked rules: never "conformant", and the coverage is said.
    expect(h1(softOnly)).toBe(
      'No MUST failure: 1 advice not followed (not the spec); 6 of 28 rules checked; 22 not checked',
    );
    expect(renderSummary(softOnly).split('\n')[0]).toBe(
      '# Conformance of `staging`: No MUST failure: 1 advice not followed (not the spec); 6 of 28 rules checked; 22 not checked (exit code 0)',
    );
    const clean = buildResults(fixtureInput({ checks: FIXTURE_CHECKS.filter((c) => c.status !== 'failed') }));
    expect(h1(clean)).toBe('Every check that ran passed; 5 of 28 rules checked; 23 not checked');
    // Only a run that checked every rule of its scope is "conformant".
    const complete = { ...clean, coverage: { rules: 3, checked: 3, unchecked: [] } };
    expect(h1(complete)).toBe('Conformant: every check passed; 3 of 3 rules checked');
  });
});
