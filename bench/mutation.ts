// npm run mutation [-- FILE ...]: StrykerJS over the reference server, one Stryker run per file
// (so a long run stopped half-way keeps the files it finished), each mutant judged by a whole
// conformance run (stryker.config.json: the command runner around src/cli/conformance.ts). Prints
// each file's and the total mutation score and the time taken; Stryker's HTML and JSON reports go
// to reports/mutation/<file>.html|json. A benchmark: not part of npm test (docs/mutation.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename } from 'node:path';

const DEFAULT_FILES = [
  'src/reference/routes/customers.ts',
  'src/reference/guards.ts',
  'src/reference/tokens.ts',
  'src/reference/api-keys.ts',
  'src/reference/api-error.ts',
  'src/reference/routes/main-service.ts',
];

type Status = string;
interface Report {
  files: Record<string, { mutants: { status: Status }[] }>;
}

const files = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_FILES;
const out = 'reports/mutation';
mkdirSync(out, { recursive: true });

const totals = { killed: 0, survived: 0, timeout: 0, ignored: 0, errors: 0 };
const started = Date.now();
for (const file of files) {
  const t0 = Date.now();
  const run = spawnSync('npx', ['stryker', 'run', '--mutate', file], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const name = basename(file, '.ts');
  if (run.status !== 0 || !existsSync(`${out}/mutation.json`)) {
    console.log(`mutation: ${file}: Stryker ended with ${run.status ?? run.signal}; no score`);
    continue;
  }
  renameSync(`${out}/mutation.json`, `${out}/${name}.json`);
  if (existsSync(`${out}/index.html`)) renameSync(`${out}/index.html`, `${out}/${name}.html`);
  const report = JSON.parse(readFileSync(`${out}/${name}.json`, 'utf8')) as Report;
  const all = Object.values(report.files).flatMap((f) => f.mutants.map((m) => m.status));
  const count = (s: Status) => all.filter((x) => x === s).length;
  const f = {
    killed: count('Killed'),
    survived: count('Survived') + count('NoCoverage'),
    timeout: count('Timeout'),
    ignored: count('Ignored'),
    errors: count('CompileError') + count('RuntimeError'),
  };
  for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += f[k];
  const judged = f.killed + f.timeout + f.survived;
  console.log(
    `mutation: ${file}: ${judged ? (((f.killed + f.timeout) / judged) * 100).toFixed(1) : '-'}% killed ` +
      `(${f.killed} killed, ${f.timeout} timed out, ${f.survived} survived, ${f.ignored} ignored fault-branch mutants, ${f.errors} errors) in ${Math.round((Date.now() - t0) / 1000)} s`,
  );
}
const judged = totals.killed + totals.timeout + totals.survived;
console.log(
  `mutation: ${files.length} file(s): ${judged ? (((totals.killed + totals.timeout) / judged) * 100).toFixed(1) : '-'}% killed ` +
    `(${totals.killed + totals.timeout} of ${judged}; ${totals.ignored} fault-branch mutants ignored) in ${Math.round((Date.now() - started) / 60_000)} min; reports in ${out}/`,
);
