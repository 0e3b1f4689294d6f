// npm run merge:load -- DIR...: one verdict over load runners that ran elsewhere (k6-operator pods,
// other machines). Each DIR holds one runner's runner.json and samples.jsonl (src/launcher/merge/).
// The merged report (k6-release.json, .md, .junit.xml) is written to K6_REPORT_DIR, else
// CONFORMANCE_REPORTS_DIR, else reports/, as the launcher's split run writes it.
// Exit codes: 0 passed, 1 failed, 3 incomplete (a share missing, cut or from a runner that did
// not end cleanly: never passed), 2 usage.
import { mkdirSync } from 'node:fs';
import { EXIT_INCONCLUSIVE } from '../launcher/exit-code.ts';
import { reportDirFrom } from '../launcher/k6-env.ts';
import { mergeRunnerDirs } from '../launcher/merge/read-dirs.ts';
import { mergedReport } from '../launcher/merge/report.ts';
import { writeMergedReport } from '../launcher/split-release.ts';

const USAGE = `usage: npm run merge:load -- DIR... (one directory per runner)
  DIR         a runner's folder: its runner.json and samples.jsonl, as each load runner left them
  -h, --help  this text
It reads no variable and sends no request: it merges what the runners measured into one verdict
per threshold.
exit codes: 0 passed, 1 failed, 2 usage, 3 incomplete (a share missing, cut, or from a runner that
  did not end cleanly: never passed)
docs: docs/load.md (One verdict over many runners)`;

const args = process.argv.slice(2).filter((a) => a !== '--');
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const dirs = args;
if (dirs.length === 0) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const started = performance.now();
const { merged, read } = mergeRunnerDirs(dirs);
const { verdict, incomplete } = merged;
for (const t of merged.thresholds) {
  const value = t.value === null ? 'no samples' : t.value.toFixed(2);
  process.stdout.write(`${t.ok ? 'ok  ' : 'FAIL'} ${t.name} ${t.expression} (merged: ${value})\n`);
}
for (const line of incomplete) process.stdout.write(`missing share: ${line}\n`);
const ms = (performance.now() - started).toFixed(0);
const sampleCount = Object.values(merged.samples).reduce((a, b) => a + b, 0);
// Peak, not current: the union is largest before the report is built.
const mb = (process.resourceUsage().maxRSS / 1024).toFixed(0);
const reportDir = reportDirFrom(process.env);
mkdirSync(reportDir, { recursive: true });
const report = mergedReport(merged, {
  script: 'release',
  target: read.target ?? { name: 'unknown', apiBaseUrl: '' },
  finishedAt: new Date(),
  figures: [
    {
      label: 'merge',
      value: `merge:load of ${dirs.length} directories, ${sampleCount} samples, in ${ms} ms, peak rss ${mb} MiB`,
    },
  ],
});
// The runners' outputs hold no secret (k6 writes metrics, not requests); nothing to filter but none.
writeMergedReport(reportDir, report, []);
process.stdout.write(
  `merged verdict: ${verdict} (${read.runners.length} runners, ${sampleCount} samples, ${ms} ms, peak rss ${mb} MiB; report ${reportDir}/k6-release.md)\n`,
);
process.exit(verdict === 'passed' ? 0 : verdict === 'failed' ? 1 : EXIT_INCONCLUSIVE);
