// npm run report:screenshot [-- REPORT_HTML [PNG]]
// A picture of a run's index.html as a person first sees it, taken with the same headless Chromium
// and playwright-core as the browser test (CHROMIUM_PATH, default Debian's /usr/bin/chromium). The
// README's screenshot is made this way from a real run. Exit 2 with one line when it cannot.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstLine } from '../client/errors.ts';
import { reportsDir } from '../report/reports-dir.ts';

const USAGE =
  'usage: npm run report:screenshot [-- REPORT_HTML [PNG]]  (default reports/index.html docs/images/report.png)';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const html = resolve(args[0] ?? `${reportsDir()}/index.html`);
  const png = resolve(args[1] ?? 'docs/images/report.png');
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(html)) {
    process.stderr.write(`report:screenshot: no report at ${html}; run npm run conformance first\n`);
    return 2;
  }
  if (!existsSync(chromiumPath)) {
    process.stderr.write(
      `report:screenshot: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)\n`,
    );
    return 2;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(html).href);
    mkdirSync(dirname(png), { recursive: true });
    await page.screenshot({ path: png });
  } finally {
    await browser.close();
  }
  process.stdout.write(`report:screenshot: ${png}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`report:screenshot: ${firstLine(error)}\n`);
    process.exitCode = 2;
  },
);
