// npm run merge:load -- DIR...: one verdict over load runners that ran elsewhere (k6-operator pods,
// other machines). Each DIR holds one runner's runner.json and samples.jsonl (src/launcher/merge/).
// Exit codes: 0 passed, 1 failed, 3 incomplete (a share missing, cut or from a runner that did
// not end cleanly: never passed), 2 usage.
import { EXIT_INCONCLUSIVE } from '../launcher/exit-code.ts';
import { readRunnerDirs } from '../launcher/merge/read-dirs.ts';
import { mergeRunners } from '../launcher/merge/samples.ts';

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
const read = readRunnerDirs(dirs);
const merged = mergeRunners(read.runners, read.thresholds);
const incomplete = [...read.unreadable, ...merged.incomplete];
const verdict = incomplete.length > 0 ? 'incomplete' : merged.verdict;
for (const t of merged.thresholds) {
  const value = t.value === null ? 'no samples' : t.value.toFixed(2);
  process.stdout.write(`${t.ok ? 'ok  ' : 'FAIL'} ${t.name} ${t.expression} (merged: ${value})\n`);
}
for (const line of incomplete) process.stdout.write(`missing share: ${line}\n`);
const ms = (performance.now() - started).toFixed(0);
const mb = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
process.stdout.write(
  `merged verdict: ${verdict} (${read.runners.length} runners, ${ms} ms, rss ${mb} MiB)\n`,
);
process.exit(verdict === 'passed' ? 0 : verdict === 'failed' ? 1 : EXIT_INCONCLUSIVE);
