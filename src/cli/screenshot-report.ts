// npm run report:screenshot [-- REPORT_HTML [PNG] [--size WIDTHxHEIGHT]]
// A picture of a run's index.html as a person first sees it, taken with the same headless Chromium
// and playwright-core as the browser test (CHROMIUM_PATH, default Debian's /usr/bin/chromium). The
// README's screenshot is made this way from a real run, and docs/load.md's of k6's dashboard report
// and the limiter picture (any page or SVG file; --size sets the window). Exit 2 with one line when
// it cannot.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstLine } from '../client/errors.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../report/chromium.ts';
import { reportsDir } from '../report/reports-dir.ts';

const USAGE =
  'usage: npm run report:screenshot [-- REPORT_HTML [PNG] [--size WIDTHxHEIGHT]]  (default reports/index.html docs/images/report.png 1280x900)';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const sizeAt = argv.indexOf('--size');
  const size = sizeAt >= 0 ? /^(\d{2,5})x(\d{2,5})$/.exec(argv[sizeAt + 1] ?? '') : ['', '1280', '900'];
  if (!size) {
    process.stderr.write(`report:screenshot: --size must be WIDTHxHEIGHT, e.g. 1280x900\n${USAGE}\n`);
    return 2;
  }
  const args = sizeAt >= 0 ? argv.filter((_, i) => i !== sizeAt && i !== sizeAt + 1) : argv;
  const html = resolve(args[0] ?? `${reportsDir()}/index.html`);
  const png = resolve(args[1] ?? 'docs/images/report.png');
  const chromiumPath = CHROMIUM_PATH;
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
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width: Number(size[1]), height: Number(size[2]) } });
    await page.goto(pathToFileURL(html).href);
    // k6's dashboard report draws its charts with script after loading: two frames later they are there.
    await page.waitForLoadState('networkidle');
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
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
