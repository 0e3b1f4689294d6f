// index.html in a real headless Chromium (Debian's chromium driven by playwright-core): it loads
// with no request leaving the page, shows the right totals, its filters work, and a failing check
// opens to the exchange that failed it. Skipped, saying why, where no browser is installed.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../src/report/chromium.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { RULES } from '../../src/rules/catalogue.ts';
import { fixtureResults, SECRET_LIST } from './fixture.ts';

const CHROMIUM = CHROMIUM_PATH;
const absent = !existsSync(CHROMIUM);
if (absent) {
  process.stderr.write(
    `html-browser.test.ts: skipped, no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)\n`,
  );
}

describe.skipIf(absent)(`index.html in headless Chromium (${CHROMIUM})`, () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const errors: string[] = [];
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-html-'));
    await writeReports(dir, fixtureResults(), createSecretFilter(SECRET_LIST));
    url = pathToFileURL(join(dir, 'index.html')).href;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const visible = (selector: string) => page.locator(`${selector}:visible`).count();

  it('loads with no request leaving the page and no script error', () => {
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
  });

  it('shows the verdict and the right totals first', async () => {
    expect(await page.locator('header h1').textContent()).toBe(
      '2 checks failed, 1 advice not followed (not the spec); 8 of 28 rules checked; 20 not checked',
    );
    const total = (key: string) =>
      page.locator(`[data-total="${key}"]`).evaluate((el) => el.firstChild?.textContent);
    expect(await total('checks-passed')).toBe('3');
    expect(await total('checks-failed')).toBe('3');
    expect(await total('checks-skipped')).toBe('1');
    expect(await total('rules-failed')).toBe('3');
    expect(await total('must-failures')).toBe('2');
    expect(await total('should-failures')).toBe('0');
    expect(await total('advice-failures')).toBe('1');
  });

  it('filters rules and checks by area and by status', async () => {
    const results = fixtureResults();
    expect(await visible('tr[data-kind="rule"]')).toBe(results.rules.length);
    await page.selectOption('#filter-area', 'auth-token');
    const authRules = RULES.filter((r) => r.area === 'auth-token').length;
    expect(await visible('tr[data-kind="rule"]')).toBe(authRules);
    expect(await page.locator('#shown-rules').textContent()).toBe(String(authRules));
    expect(await visible('details[data-kind="check"]')).toBe(2);

    await page.uncheck('input[name="status"][value="passed"]');
    // The area's rules the fixture covers not at all (SEC-01) are hidden too.
    await page.uncheck('input[name="status"][value="uncovered"]');
    expect(await visible('tr[data-kind="rule"]')).toBe(1);
    expect(await page.locator('tr[data-kind="rule"]:visible td.id').textContent()).toBe('TOK-03');
    expect(await visible('details[data-kind="check"]')).toBe(1);

    await page.selectOption('#filter-area', 'all');
    await page.check('input[name="status"][value="passed"]');
    expect(await visible('tr[data-kind="rule"]')).toBe(
      results.rules.filter((r) => r.status !== 'uncovered').length,
    );
    await page.check('input[name="status"][value="uncovered"]');
  });

  it('a failing check opens to its request and response; a </script> in a body stays text', async () => {
    const check = page.locator('details#check-PAG-SHOWING');
    expect(await check.locator('pre.response').first().isVisible()).toBe(false);
    await check.locator('summary').click();
    const response = check.locator('pre.response').first();
    expect(await response.isVisible()).toBe(true);
    expect(await response.textContent()).toContain('</script><script>window.__pwned = 1</script>');
    expect(await check.locator('.exchange h4').first().textContent()).toContain(
      'GET http://127.0.0.1:4010/api/v1/customers?page=2 → HTTP 200',
    );
    expect(await check.locator('pre.reason').textContent()).toContain('showing_items is 3');
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.locator('img').count()).toBe(0);
  });

  it('a link to a rule shows its row below the sticky filter bar and table header, not under them', async () => {
    await page.setViewportSize({ width: 1280, height: 400 });
    const box = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      });
    try {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.locator('a.chip[href="#rule-PAG-03"]').click();
      const bar = await box('.filters');
      const head = await box('table.rules th >> nth=0');
      const row = await box('tr#rule-PAG-03');
      expect(bar.top).toBe(0);
      expect(head.top).toBeGreaterThanOrEqual(bar.bottom - 1);
      expect(row.top).toBeGreaterThanOrEqual(head.bottom - 1);
      // Deep in the table the header sticks right under the bar: no gap where rows show through.
      await page.evaluate(
        "window.scrollTo(0, document.querySelector('table.rules').getBoundingClientRect().top + window.scrollY + 300)",
      );
      const stuck = await box('table.rules th >> nth=0');
      expect(Math.abs(stuck.top - (await box('.filters')).bottom)).toBeLessThanOrEqual(1);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('a link from a rule to its check opens the check', async () => {
    await page.locator('tr#rule-TOK-03 a[href="#check-TOK-WRONG"]').click();
    // The page opens the check on hashchange, after the click returns: wait for that state (a
    // bounded wait that fails the test when the check never opens), never for a fixed time.
    await page.locator('details#check-TOK-WRONG[open]').waitFor({ state: 'attached', timeout: 5_000 });
    expect(await page.locator('details#check-TOK-WRONG').getAttribute('open')).not.toBeNull();
    expect(requests).toEqual([url]);
  });

  it('runs only its own script and style: markup that got past the escaping does nothing', async () => {
    // As if a payload had escaped the escaping: an inline script, an inline style and a base URL
    // placed in the page. The CSP pins the page's own script and style by hash.
    const original = await readFile(join(dir, 'index.html'), 'utf8');
    const injected = original.replace(
      '<main>',
      '<main><base href="http://127.0.0.9/"><style>body { display: none !important; }</style><script>window.__pwned = 1;</script>',
    );
    const file = join(dir, 'injected.html');
    await writeFile(file, injected);
    const other = await browser.newPage();
    const violations: string[] = [];
    other.on('console', (m) => violations.push(m.text()));
    try {
      await other.goto(pathToFileURL(file).href);
      expect(await other.evaluate('window.__pwned')).toBeUndefined();
      expect(await other.evaluate('getComputedStyle(document.body).display')).not.toBe('none');
      // The page's own script ran (it measures the sticky bar) and its own style applies.
      expect(await other.evaluate("document.documentElement.style.getPropertyValue('--sticky')")).toMatch(
        /px$/,
      );
      expect(await other.evaluate("getComputedStyle(document.querySelector('header')).color")).toBe(
        'rgb(255, 255, 255)',
      );
      expect(await other.evaluate('document.baseURI')).toBe(pathToFileURL(file).href);
      expect(violations.join('\n')).toMatch(/Content Security Policy/);
    } finally {
      await other.close();
    }
  });
});
