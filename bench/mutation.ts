// npm run mutation [-- FILE[:FROM-TO] ...] [--judge | --variants] [--resume] [--concurrency=N] [--no-variants]:
// StrykerJS over the reference server, one Stryker run per file (so a long run stopped half-way keeps
// the files it finished; --resume continues it at the same commit), each mutant judged by a whole
// conformance run (stryker.config.json: the command runner
// around src/cli/conformance.ts). Then the variant pass: a survivor whose triage names the tolerance
// variant that reaches its code (another open choice) is judged again by that variant's conformance
// run (bench/stryker/variants.ts). Then every survivor is looked up in the triage
// (bench/stryker/triage/<file>.yaml: equivalent under the spec, or a blind spot) and the score over
// the non-equivalent mutants is printed with the time taken. `--judge` only judges the reports
// already in reports/mutation/ (after editing the triage); `--variants` runs the variant pass over
// them first.
// Stryker's HTML and JSON reports: reports/mutation/<file>.html|json; every survivor with its verdict:
// reports/mutation/survivors.md. Exit 1 when a survivor is not triaged, 3 when a kill was the run
// refusing to start (its reports folder in use), which voids the score. A benchmark: not part of
// npm test (docs/mutation.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { type Kill, type KilledBy, unconfirmedKills } from './stryker/confirm.ts';
import { type FileRecord, resumableRecord } from './stryker/file-record.ts';
import {
  findTriage,
  isHarnessRefusal,
  isPinned,
  type Judgement,
  judge,
  movedEntries,
  mutatedText,
  openSurvivors,
  type StrykerReport,
  type Survivor,
  score,
  staleEntries,
  type TriageEntry,
  triageProblems,
  type VariantResult,
  VERDICTS,
} from './stryker/triage.ts';
import { makeSandbox, variantPass } from './stryker/variants.ts';

const ROOT = 'src/reference';
/**
 * Not mutated: the fault fixtures (the faults the matrix switches on, not the server's behaviour)
 * and the control API's routes (the tests' side channel into the server, no route of the spec: its
 * mutants say how the suite drives the server, not what it would miss in an API).
 */
const FIXTURES = new Set([`${ROOT}/faults.ts`, `${ROOT}/reshape.ts`, `${ROOT}/routes/control.ts`]);
const OUT = 'reports/mutation';
/** One YAML list per mutated file (bench/stryker/triage/<name>.yaml), so files are triaged apart. */
const TRIAGE = 'bench/stryker/triage';
/** The variant pass's results, by mutant (bench/stryker/variants.ts). */
const VARIANT_RESULTS = `${OUT}/variants.json`;

function everyFile(): string[] {
  return (readdirSync(ROOT, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${ROOT}/${f}`)
    .filter((f) => !FIXTURES.has(f))
    .sort();
}

/** reports/mutation/<name>.json: the path under src/reference/ with its folders joined by '-'. */
function reportName(file: string): string {
  return file.slice(ROOT.length + 1, -'.ts'.length).replaceAll('/', '-');
}

const args = process.argv.slice(2);
const judgeOnly = args.includes('--judge');
// --variants: the variant pass over the reports already there (after giving triage entries a variant).
const variantsOnly = args.includes('--variants');
// --concurrency=N is handed to Stryker (1 leaves a core to other work on this 2-core machine).
const passed = args.filter((a) => a.startsWith('--concurrency=')).flatMap((a) => a.split('='));
const concurrency = Number(passed[1] ?? 2) || 2;
// --no-variants: the default conformance run only (the variant pass is skipped).
const variantsOn = !args.includes('--no-variants');
const named = args.filter((a) => !a.startsWith('--'));
// FILE:FROM-TO (Stryker's line range, 1-based, inclusive) mutates only those lines of FILE; a file
// named several times with ranges is one Stryker run over all of them.
const ranges = new Map<string, { from: number; to: number }[]>();
for (const a of named) {
  const m = /^(.+\.ts)(?::(\d+)-(\d+))?$/.exec(a);
  if (!m) {
    console.error(`mutation: ${a}: expected FILE or FILE:FROM-TO`);
    process.exit(2);
  }
  const file = m[1] as string;
  ranges.set(file, [
    ...(ranges.get(file) ?? []),
    ...(m[2] ? [{ from: Number(m[2]), to: Number(m[3]) }] : []),
  ]);
}
const files = named.length ? [...ranges.keys()] : everyFile();
/** Stryker's --mutate for one file: the file, or its ranges. */
const mutateSpec = (file: string) =>
  ranges.get(file)?.length
    ? (ranges.get(file) ?? []).map((r) => `${file}:${r.from}-${r.to}`).join(',')
    : file;
/** A triage entry this run judges: of a file it mutates, within its ranges when it has any. */
const inScope = (t: TriageEntry) =>
  files.includes(t.file) &&
  (!ranges.get(t.file)?.length ||
    (ranges.get(t.file) ?? []).some((r) => t.line !== undefined && t.line >= r.from && t.line <= r.to));
mkdirSync(OUT, { recursive: true });

const triage: TriageEntry[] = [];
for (const name of readdirSync(TRIAGE)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  const entries: unknown = parse(readFileSync(`${TRIAGE}/${name}`, 'utf8')) ?? [];
  const problems = triageProblems(entries);
  if (problems.length) {
    console.error(`mutation: ${TRIAGE}/${name}: ${problems.join('; ')}`);
    process.exit(2);
  }
  triage.push(...(entries as TriageEntry[]));
}

const percent = (x: number) => (Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);
const started = Date.now();

// A whole run takes hours here, so each file's pass (Stryker, its kills confirmed, its survivors'
// variants) is finished and recorded before the next begins (reports/mutation/<name>.done.json), and
// --resume takes a file's record instead of running it again when the record is of this commit, of
// the same mutated lines and of a clean tree: a run stopped half-way (a session's end, a CI limit)
// continues where it stopped, and the figure it prints is still of one commit.
const resume = args.includes('--resume');
/** The commit checked out, and whether the tree differs from it where a figure depends on it. */
function treeState(): { commit: string; dirty: boolean } {
  const git = (...a: string[]) => spawnSync('git', a, { encoding: 'utf8' }).stdout.trim();
  return {
    commit: git('rev-parse', 'HEAD'),
    // (bench/stryker/summary.json is this run's own output.)
    dirty:
      git(
        'status',
        '--porcelain',
        '--',
        'src',
        'bench',
        'suites',
        'schemas',
        'common',
        ':!bench/stryker/summary.json',
      ).length > 0,
  };
}
const { commit, dirty } = treeState();
if (resume && (dirty || !commit)) {
  console.error(
    'mutation: --resume needs a clean tree at a commit (src, bench, suites, schemas, common): a resumed figure must be of one commit',
  );
  process.exit(2);
}

const confirmOn = !judgeOnly && !variantsOnly && !args.includes('--no-confirm');
const recordPath = (file: string) => `${OUT}/${reportName(file)}.done.json`;
function resumable(file: string): FileRecord | undefined {
  if (!resume || !existsSync(recordPath(file)) || !existsSync(`${OUT}/${reportName(file)}.json`))
    return undefined;
  return resumableRecord(readFileSync(recordPath(file), 'utf8'), {
    commit,
    spec: mutateSpec(file),
    confirm: confirmOn,
    variants: variantsOn,
  });
}
const killsOf = (report: StrykerReport & { projectRoot?: string }): Kill[] =>
  Object.entries(report.files).flatMap(([name, f]) =>
    f.mutants
      .filter((m) => m.status === 'Killed')
      .map((m) => ({
        file: name.startsWith('/') && report.projectRoot ? name.slice(report.projectRoot.length + 1) : name,
        location: m.location,
        replacement: m.replacement ?? '',
        original: mutatedText(f.source, m.location),
        mutator: m.mutatorName,
      })),
  );

// The variant pass's results are kept (reports/mutation/variants.json) for --judge and for files
// not run now.
const underVariants = new Map<string, VariantResult>(
  existsSync(VARIANT_RESULTS)
    ? (JSON.parse(readFileSync(VARIANT_RESULTS, 'utf8')) as VariantResult[]).map((r) => [r.key, r])
    : [],
);
/** The variant pass: survivors whose code only another choice reaches, run against that choice. */
async function runVariantPass(survivors: Survivor[]) {
  const t0 = Date.now();
  try {
    for (const r of await variantPass(survivors, { root: '.', concurrency, log: (l) => console.log(l) }))
      underVariants.set(r.key, r);
  } catch (error) {
    console.log(`mutation: variant pass stopped: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  writeFileSync(VARIANT_RESULTS, `${JSON.stringify([...underVariants.values()], null, 1)}\n`);
  console.log(`mutation: variant pass took ${Math.round((Date.now() - t0) / 1000)} s`);
}

// The sandboxes the kills are confirmed in (one per worker), made once for the whole invocation.
let sandboxes: string[] = [];
process.on('exit', () => {
  for (const s of sandboxes) rmSync(s, { recursive: true, force: true });
});
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

// 1. Per file: Stryker, then its kills confirmed by running each again, then its survivors'
// variants (or the reports already there, with --judge or --variants).
const reports: { file: string; report: StrykerReport & { projectRoot?: string }; seconds?: number }[] = [];
const records = new Map<string, FileRecord>();
/** Per file run now: whether the tree was the run's commit, unchanged, when Stryker copied it. */
const clean = new Map<string, boolean>();
let resumed = 0;
for (const file of files) {
  const name = reportName(file);
  const t0 = Date.now();
  const earlier = resumable(file);
  if (earlier) {
    console.log(`mutation: ${file}: taken from the pass of ${earlier.date} at this commit (--resume)`);
    resumed++;
    records.set(file, earlier);
  } else if (!judgeOnly && !variantsOnly) {
    rmSync(recordPath(file), { force: true });
    // Stryker copies the tree as it is now: a pass is of the run's commit only if nothing changed since.
    const now = treeState();
    clean.set(file, !now.dirty && now.commit === commit);
    const run = spawnSync('npx', ['stryker', 'run', '--mutate', mutateSpec(file), ...passed], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (run.status !== 0 || !existsSync(`${OUT}/mutation.json`)) {
      console.log(`mutation: ${file}: Stryker ended with ${run.status ?? run.signal}; no score`);
      continue;
    }
    renameSync(`${OUT}/mutation.json`, `${OUT}/${name}.json`);
    if (existsSync(`${OUT}/index.html`)) renameSync(`${OUT}/index.html`, `${OUT}/${name}.html`);
  } else if (!existsSync(`${OUT}/${name}.json`)) {
    console.log(`mutation: ${file}: no report in ${OUT}/ yet; run npm run mutation -- ${file}`);
    continue;
  }
  const report = JSON.parse(readFileSync(`${OUT}/${name}.json`, 'utf8')) as StrykerReport & {
    projectRoot?: string;
  };
  if (!earlier && !judgeOnly && !variantsOnly) {
    const kills = confirmOn ? killsOf(report) : [];
    const by = new Map<string, KilledBy>();
    let notReproduced = 0;
    if (kills.length) {
      if (sandboxes.length === 0)
        sandboxes = Array.from({ length: concurrency }, () => makeSandbox(process.cwd()));
      console.log(`mutation: ${file}: confirming ${kills.length} kills by running each again`);
      notReproduced = (await unconfirmedKills(kills, sandboxes, (l) => console.log(l), undefined, by)).length;
    }
    if (variantsOn) await runVariantPass(judge(report, triage).survivors);
    const record: FileRecord = {
      commit,
      spec: mutateSpec(file),
      date: new Date().toISOString(),
      seconds: Math.round((Date.now() - t0) / 1000),
      confirmed: confirmOn,
      variants: variantsOn,
      notReproduced,
      kills: kills.flatMap((k) => {
        const at = `${k.file}:${k.location.start.line}:${k.location.start.column}`;
        const what = by.get(`${at} ${k.replacement}`);
        return what
          ? [
              {
                at,
                ...(k.mutator ? { mutator: k.mutator } : {}),
                original: k.original,
                replacement: k.replacement,
                ...what,
              },
            ]
          : [];
      }),
    };
    // Only a clean tree's pass can be resumed: its record names the commit it is of.
    if (clean.get(file)) writeFileSync(recordPath(file), `${JSON.stringify(record, null, 1)}\n`);
    records.set(file, record);
  }
  const record = records.get(file);
  reports.push({ file, report, ...(record ? { seconds: record.seconds } : {}) });
}

// 2. --variants: the variant pass over the reports already there (after giving triage entries a variant).
if (variantsOnly) await runVariantPass(reports.flatMap(({ report }) => judge(report, triage).survivors));

// 2b. Every kill of this run confirmed (the records above): what each reproduced kill's run failed,
// for reading after the run and for --judge.
const notReproduced = new Map<string, number>();
if (records.size > 0) {
  for (const [file, r] of records) if (r.notReproduced) notReproduced.set(file, r.notReproduced);
  if ([...records.values()].every((r) => r.confirmed))
    writeFileSync(
      `${OUT}/kills.json`,
      `${JSON.stringify(
        [...records.values()].flatMap((r) => r.kills),
        null,
        1,
      )}\n`,
    );
}

// 2c. --judge: the confirmation of the run that wrote the reports, when it kept one (kills.json holds
// every kill it reproduced): a kill of a report not in it did not reproduce. A file with no
// reproduced kill in it is taken as not confirmed.
const confirmedFiles = new Set<string>();
if ((judgeOnly || variantsOnly) && existsSync(`${OUT}/kills.json`)) {
  const reproduced = new Set(
    (JSON.parse(readFileSync(`${OUT}/kills.json`, 'utf8')) as { at: string; replacement: string }[]).map(
      (k) => `${k.at} ${k.replacement}`,
    ),
  );
  for (const { file, report } of reports) {
    const kills = Object.values(report.files).flatMap((f) =>
      f.mutants
        .filter((m) => m.status === 'Killed')
        .map((m) => `${file}:${m.location.start.line}:${m.location.start.column} ${m.replacement ?? ''}`),
    );
    if (!kills.some((k) => reproduced.has(k))) continue;
    confirmedFiles.add(file);
    const missing = kills.filter((k) => !reproduced.has(k)).length;
    if (missing) notReproduced.set(file, missing);
  }
}

// 3. The verdicts.
const judgements: Judgement[] = [];
/** Per file, for the table of survivors.md. */
const rows: { file: string; j: Judgement }[] = [];
for (const { file, report, seconds } of reports) {
  const j = judge(report, triage, underVariants);
  // A kill that did not reproduce is not a kill: counted apart (and as not killed in the raw score).
  j.unconfirmed = notReproduced.get(file) ?? 0;
  j.killed -= j.unconfirmed;
  judgements.push(j);
  rows.push({ file, j });
  const s = score([j]);
  console.log(
    `mutation: ${file}: ${s.killed} of ${s.judged} killed (${percent(s.raw)}${j.killedUnderVariant.length ? `, ${j.killedUnderVariant.length} of them under their variant` : ''}); ${s.equivalent} not faults under the spec, ` +
      `${s.open} blind spots, ${s.untriaged} not triaged: ${percent(s.nonEquivalent)} of the non-equivalent; ` +
      `${j.ignored} fault-branch mutants ignored${j.errors ? `, ${j.errors} errors` : ''}${seconds === undefined ? '' : ` (${seconds} s)`}`,
  );
  for (const [ending, n] of Object.entries(j.killedOtherwise))
    console.log(`  ${n} killed by a run that ended otherwise than with failed checks: ${ending}`);
}

const cell = (x: string) => x.replaceAll('|', '\\|').replaceAll('\n', ' ');
const variantCell = (s: Survivor) =>
  s.underVariant
    ? `survived ${s.underVariant.variant}`
    : s.entry?.variant
      ? `${s.entry.variant}: not run (npm run mutation -- ${s.file})`
      : '';
const line = (s: Survivor) =>
  `${s.file}:${s.line} ${s.mutator} \`${s.original.split('\n')[0]}${s.original.includes('\n') ? '...' : ''}\` -> \`${s.replacement.split('\n')[0]}\``;
const untriaged = judgements.flatMap((j) => j.survivors).filter((s) => s.triage === undefined);
for (const s of untriaged) console.log(`  not triaged: ${line(s)}`);
for (const s of judgements.flatMap(openSurvivors).filter((s) => s.triage))
  console.log(`  blind spot: ${line(s)}`);
const stale = staleEntries(judgements, triage.filter(inScope), files);
for (const t of stale)
  console.log(
    `  triage entry no survivor matches (killed now?): ${t.file} \`${t.original}\` -> \`${t.replacement}\``,
  );

const total = score(judgements);
const sources = new Map(files.filter(existsSync).map((f) => [f, readFileSync(f, 'utf8')]));
const moved = movedEntries(triage.filter(inScope), sources);
for (const t of moved)
  console.log(`  stale (code moved, excuses nothing): ${t.file}:${t.line}:${t.column} \`${t.original}\``);
const unpinned = triage.filter((t) => files.includes(t.file) && !ranges.get(t.file)?.length && !isPinned(t));
if (unpinned.length)
  console.log(
    `mutation: ${unpinned.length} triage entries of these files are not pinned (or ambiguous) and excuse nothing`,
  );
writeFileSync(
  `${OUT}/survivors.md`,
  [
    `# Surviving mutants (${judgements.length} files; ${total.killed} of ${total.judged} killed)`,
    '',
    '| file | mutants judged | killed | equivalent | unobservable | not the API | blind spots | not triaged | killed of the non-equivalent |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(({ file, j }) => {
      const s = score([j]);
      const by = (v: string) => j.survivors.filter((x) => x.triage?.verdict === v).length;
      return `| ${file} | ${s.judged} | ${s.killed} | ${by('equivalent')} | ${by('unobservable')} | ${by('not-the-api')} | ${s.open} | ${s.untriaged} | ${percent(s.nonEquivalent)} |`;
    }),
    `| all | ${total.judged} | ${total.killed} | ${judgements.flatMap((j) => j.survivors).filter((x) => x.triage?.verdict === 'equivalent').length} | ${judgements.flatMap((j) => j.survivors).filter((x) => x.triage?.verdict === 'unobservable').length} | ${judgements.flatMap((j) => j.survivors).filter((x) => x.triage?.verdict === 'not-the-api').length} | ${total.open} | ${total.untriaged} | ${percent(total.nonEquivalent)} |`,
    '',
    '| survivor | verdict | why | the spec | under its variant |',
    '|---|---|---|---|---|',
    ...judgements
      .flatMap((j) => j.survivors)
      .map((s) => {
        const t = s.triage ?? findTriage(s, triage);
        const verdict = s.triage
          ? VERDICTS[s.triage.verdict]
          : s.entry
            ? `NOT TRIAGED (${VERDICTS[s.entry.verdict]}, but its variant reaches it)`
            : 'NOT TRIAGED';
        return `| ${cell(line(s))} | ${verdict} | ${cell(t?.why ?? '')} | ${cell(t?.spec ?? '')} | ${cell(variantCell(s))} |`;
      }),
    '',
    '## Killed under their variant',
    '',
    'Survivors of the default run whose code only another open choice reaches, killed by the conformance run of that choice:',
    '',
    '| mutant | variant | the run |',
    '|---|---|---|',
    ...judgements
      .flatMap((j) => j.killedUnderVariant)
      .map(
        (s) =>
          `| ${cell(line(s))} | ${cell(s.underVariant?.variant ?? '')} | ${cell(s.underVariant?.detail ?? '')} |`,
      ),
    '',
  ].join('\n'),
);
// The raw figure first: nothing in it depends on the triage.
console.log(
  `mutation: RAW ${total.killed} of ${total.judged} mutants killed (${percent(total.raw)}); ${total.timedOut} timeouts (not counted as kills); ${[...notReproduced.values()].reduce((a, b) => a + b, 0)} kills that did not reproduce (not counted as kills)`,
);
console.log(
  `mutation: killed / (killed + timeouts + blind spots + not triaged) = ${percent(total.nonEquivalent)}; excused: ${
    Object.entries(total.excused)
      .map(([v, n]) => `${n} ${v}`)
      .join(', ') || 'none'
  }; ${moved.length} stale entries, ${unpinned.length} unpinned`,
);
// The summary kept in the repository: the whole figure of one run at one commit (a --judge of
// older reports, or a subset, says so in `scope`).
writeFileSync(
  'bench/stryker/summary.json',
  `${JSON.stringify(
    {
      commit,
      dirty,
      date: new Date().toISOString(),
      scope:
        judgeOnly || variantsOnly ? 'judged from existing reports' : named.length ? 'subset' : 'all files',
      files: reports.map((r) => mutateSpec(r.file)),
      killed: total.killed,
      mutants: total.judged,
      raw: total.raw,
      timedOut: total.timedOut,
      killsNotReproduced: [...notReproduced.values()].reduce((a, b) => a + b, 0),
      killsConfirmed:
        judgeOnly || variantsOnly
          ? reports.length > 0 && reports.every((r) => confirmedFiles.has(r.file))
          : reports.every((r) => records.get(r.file)?.confirmed),
      resumedFiles: resumed,
      blindSpots: total.open,
      untriaged: total.untriaged,
      excused: total.excused,
      nonEquivalent: total.nonEquivalent,
      staleEntries: moved.length,
      unpinnedEntries: unpinned.length,
    },
    null,
    1,
  )}\n`,
);
console.log(
  `mutation: ${judgements.length} file(s): ${total.killed} of ${total.judged} killed (${percent(total.raw)} raw); ` +
    `${total.equivalent} survivors not faults under the spec (equivalent, unobservable, outside the API), ${total.open} blind spots, ${total.untriaged} not triaged: ` +
    `${percent(total.nonEquivalent)} of the non-equivalent mutants killed` +
    `${judgeOnly ? '' : ` in ${Math.round((Date.now() - started) / 60_000)} min`}; reports in ${OUT}/ (survivors.md)`,
);
const refusals = judgements.flatMap((j) => Object.keys(j.killedOtherwise)).filter(isHarnessRefusal);
if (refusals.length) {
  // Such kills were the harness refusing itself, not the suite catching the mutant: the score is void.
  console.log(
    'mutation: some kills were runs that refused to start (reports folder in use): the score above is not valid',
  );
  process.exit(3);
}
process.exit(untriaged.length ? 1 : 0);
