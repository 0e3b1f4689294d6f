// Judges a Stryker run against the triage of its survivors (bench/stryker/triage/*.yaml): each
// surviving mutant is matched by file, the source text it mutated and its replacement (not by line,
// which moves with every edit), so the score over the non-equivalent mutants is computed, not
// written by hand, and a survivor nobody has judged yet is listed as such. Pure: bench/mutation.ts
// reads the files, test/bench/triage.test.ts the logic.

/** What a survivor is, judged against the spec. */
export const VERDICTS = {
  /** Changes only what the spec leaves open: `spec` quotes the "not shown" (or open) line. */
  equivalent: 'equivalent under the spec',
  /** No answer of the server changes (redundant code, a bound never reached in a run). */
  unobservable: 'no observable change',
  /** Reached only by a fault, an option off in a conformance run, or the control API: not the API's behaviour. */
  'not-the-api': 'not the behaviour of the API',
  /** A rule of the spec the suite does not yet see broken: counts against the score. */
  'blind-spot': 'blind spot (open)',
} as const;
export type Verdict = keyof typeof VERDICTS;

export interface TriageEntry {
  file: string;
  original: string;
  replacement: string;
  verdict: Verdict;
  why: string;
  spec?: string;
  /**
   * The tolerance variant (src/runner/variants.ts) whose server reaches the mutated code: another
   * open choice, the extra fields, other sizes. The mutant is judged again against that variant's
   * conformance run (bench/stryker/variants.ts): killed there, it counts as killed; surviving, its
   * verdict must hold under the variant too.
   */
  variant?: string;
  /**
   * Only for a text the file holds more than once with the same replacement (`false` -> `true` in
   * two functions) whose mutants need different verdicts or variants: the entry then matches the
   * survivor on this line only, before any entry without a line. A moved line shows as a stale entry.
   */
  line?: number;
}

/** The parts of Stryker's mutation-testing-report-schema JSON this reads. */
export interface StrykerReport {
  files: Record<
    string,
    {
      source: string;
      mutants: {
        mutatorName: string;
        replacement?: string;
        status: string;
        /** For a kill by the command runner: the tail of the conformance run's output. */
        statusReason?: string;
        location: { start: { line: number; column: number }; end: { line: number; column: number } };
      }[];
    }
  >;
}

type Location = StrykerReport['files'][string]['mutants'][number]['location'];

export interface Survivor {
  file: string;
  line: number;
  location: Location;
  mutator: string;
  original: string;
  replacement: string;
  /** The triage entry whose verdict holds for it (undefined: counts as not triaged). */
  triage: TriageEntry | undefined;
  /** The entry that matched it, also when its verdict no longer holds (see judge()). */
  entry?: TriageEntry | undefined;
  /** Its run against the variant its triage names, when there was one. */
  underVariant?: VariantResult;
}

/** A survivor of the default run judged again against the variant that reaches its code. */
export interface VariantResult {
  /** mutantKey() of the survivor. */
  key: string;
  variant: string;
  killed: boolean;
  /** The run's last line: which checks failed, or that none did. */
  detail: string;
}

/** One mutant, the same in every report of the same source: file, span and replacement. */
export function mutantKey(m: { file: string; location: Location; replacement: string }): string {
  const { start, end } = m.location;
  return `${m.file}:${start.line}:${start.column}-${end.line}:${end.column} ${m.replacement}`;
}

/** The source with one mutant applied (the inverse of mutatedText's cut). */
export function applyMutant(source: string, location: Location, replacement: string): string {
  const lines = source.split('\n');
  const offset = (line: number, column: number) =>
    lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
  return (
    source.slice(0, offset(location.start.line, location.start.column)) +
    replacement +
    source.slice(offset(location.end.line, location.end.column))
  );
}

export interface Judgement {
  killed: number;
  /** Survivors of the default run that their variant's run killed (counted in killed too). */
  killedUnderVariant: Survivor[];
  /** Kills whose run ended otherwise than with failed checks, by the run's last line (setup refused, crash...). */
  killedOtherwise: Record<string, number>;
  timedOut: number;
  ignored: number;
  errors: number;
  survivors: Survivor[];
}

/** Whitespace runs as one space: a mutated span over several lines matches its one-line triage. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The source text a mutant replaced (1-based lines, 1-based columns, end exclusive). */
export function mutatedText(source: string, loc: Location): string {
  const lines = source.split('\n');
  if (loc.start.line === loc.end.line)
    return lines[loc.start.line - 1]?.slice(loc.start.column - 1, loc.end.column - 1) ?? '';
  const first = lines[loc.start.line - 1]?.slice(loc.start.column - 1) ?? '';
  const middle = lines.slice(loc.start.line, loc.end.line - 1);
  const last = lines[loc.end.line - 1]?.slice(0, loc.end.column - 1) ?? '';
  return [first, ...middle, last].join('\n');
}

/** Stryker's absolute or project-relative file name as the project-relative path. */
function relative(file: string, projectRoot: string | undefined): string {
  const root = projectRoot ? `${projectRoot.replace(/\/$/, '')}/` : '';
  return root && file.startsWith(root) ? file.slice(root.length) : file;
}

/**
 * The triage entry of a survivor: same file, same replacement, and the entry's `original` equal to
 * the mutated text or, for a long span (a whole block or function), its first line.
 */
export function findTriage(
  survivor: Omit<Survivor, 'triage'>,
  triage: readonly TriageEntry[],
): TriageEntry | undefined {
  const original = squash(survivor.original);
  const replacement = squash(survivor.replacement);
  const matches = (t: TriageEntry) =>
    t.file === survivor.file &&
    squash(t.replacement) === replacement &&
    (squash(t.original) === original ||
      (t.original.endsWith('...') && original.startsWith(squash(t.original.slice(0, -3)))));
  return (
    triage.find((t) => t.line === survivor.line && matches(t)) ??
    triage.find((t) => t.line === undefined && matches(t))
  );
}

/**
 * Judges a report's mutants. A survivor whose triage names a variant is judged by its run against
 * that variant when `underVariants` holds one: killed there, it counts as killed; survived, its
 * verdict stands, unless the verdict is `not-the-api`, which says no conformance run reaches it
 * (then it is judged nobody's: untriaged).
 */
export function judge(
  report: StrykerReport & { projectRoot?: string },
  triage: readonly TriageEntry[],
  underVariants: ReadonlyMap<string, VariantResult> = new Map(),
): Judgement {
  const judgement: Judgement = {
    killed: 0,
    killedUnderVariant: [],
    killedOtherwise: {},
    timedOut: 0,
    ignored: 0,
    errors: 0,
    survivors: [],
  };
  for (const [name, file] of Object.entries(report.files)) {
    const path = relative(name, report.projectRoot);
    for (const m of file.mutants) {
      if (m.status === 'Killed') {
        judgement.killed += 1;
        const ending = killEnding(m.statusReason);
        if (ending !== undefined)
          judgement.killedOtherwise[ending] = (judgement.killedOtherwise[ending] ?? 0) + 1;
      } else if (m.status === 'Timeout') judgement.timedOut += 1;
      else if (m.status === 'Ignored') judgement.ignored += 1;
      else if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const survivor = {
          file: path,
          line: m.location.start.line,
          location: m.location,
          mutator: m.mutatorName,
          original: mutatedText(file.source, m.location),
          replacement: m.replacement ?? '',
        };
        const entry = findTriage(survivor, triage);
        const result = entry?.variant ? underVariants.get(mutantKey(survivor)) : undefined;
        const judged = { ...survivor, entry, triage: entry, ...(result ? { underVariant: result } : {}) };
        if (result?.killed) {
          judgement.killed += 1;
          judgement.killedUnderVariant.push(judged);
          continue;
        }
        // not-the-api says no conformance run reaches the code; its variant's run did.
        if (result && entry?.verdict === 'not-the-api') judged.triage = undefined;
        judgement.survivors.push(judged);
      } else judgement.errors += 1;
    }
  }
  return judgement;
}

/** A conformance run that failed a check ends with this line (src/cli/conformance.ts). */
const FAILED_CHECKS = 'exit code 1 (a check failed)';

/**
 * undefined when the mutant was killed by failed checks (or the reason is unknown), else the run's
 * last line: a kill the run gave for another reason (the server never came up, the run refused to
 * start) is real only when the mutant caused it, so it is shown, never silently counted.
 */
export function killEnding(reason: string | undefined): string | undefined {
  if (!reason || reason.includes(FAILED_CHECKS)) return undefined;
  const last = reason.trim().split('\n').at(-1) ?? '';
  return last.replace(/\d+/g, 'N').slice(0, 120);
}

/** A kill that says nothing about the mutant: the run refused to start because another held its reports. */
export function isHarnessRefusal(ending: string): boolean {
  return ending.includes('another conformance run');
}

/** Survivors that count against the score: blind spots and those not judged yet. */
export function openSurvivors(j: Judgement): Survivor[] {
  return j.survivors.filter((s) => s.triage === undefined || s.triage.verdict === 'blind-spot');
}

export interface Score {
  /** Killed (timeouts included) of all mutants judged. */
  raw: number;
  /** Killed of the mutants that are not equivalent, unobservable or outside the API. */
  nonEquivalent: number;
  killed: number;
  judged: number;
  equivalent: number;
  open: number;
  untriaged: number;
}

export function score(judgements: readonly Judgement[]): Score {
  const killed = judgements.reduce((n, j) => n + j.killed + j.timedOut, 0);
  const survivors = judgements.flatMap((j) => j.survivors);
  const open = judgements.flatMap(openSurvivors);
  const judged = killed + survivors.length;
  return {
    raw: judged ? killed / judged : Number.NaN,
    nonEquivalent: killed + open.length ? killed / (killed + open.length) : Number.NaN,
    killed,
    judged,
    equivalent: survivors.length - open.length,
    open: open.filter((s) => s.triage !== undefined).length,
    untriaged: survivors.filter((s) => s.triage === undefined).length,
  };
}

/** Entries of the triage that no survivor of these files matched any more (killed now, or the code moved). */
export function staleEntries(
  judgements: readonly Judgement[],
  triage: readonly TriageEntry[],
  files: readonly string[],
): TriageEntry[] {
  const used = new Set(
    judgements.flatMap((j) => [...j.survivors, ...j.killedUnderVariant].map((s) => s.entry)).filter(Boolean),
  );
  return triage.filter((t) => files.includes(t.file) && !used.has(t));
}

/** Checks the triage file's entries: every field present, a known verdict, a spec line where the verdict needs one. */
export function triageProblems(entries: unknown): string[] {
  if (!Array.isArray(entries)) return ['the triage is not a list'];
  const problems: string[] = [];
  for (const [i, e] of entries.entries()) {
    const at = `entry ${i + 1}`;
    if (typeof e !== 'object' || e === null) {
      problems.push(`${at}: not a mapping`);
      continue;
    }
    const t = e as Record<string, unknown>;
    for (const k of ['file', 'original', 'replacement', 'verdict', 'why'])
      if (typeof t[k] !== 'string') problems.push(`${at}: ${k} missing`);
    if (typeof t.verdict === 'string' && !(t.verdict in VERDICTS))
      problems.push(`${at}: unknown verdict ${t.verdict}`);
    if (t.verdict === 'equivalent' && typeof t.spec !== 'string')
      problems.push(`${at}: an equivalent mutant quotes the spec's line`);
    if (t.variant !== undefined && typeof t.variant !== 'string')
      problems.push(`${at}: variant is not a name`);
    if (t.line !== undefined && !(Number.isInteger(t.line) && (t.line as number) > 0))
      problems.push(`${at}: line is not a line number`);
  }
  return problems;
}
