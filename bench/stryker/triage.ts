// Judges a Stryker run against the triage of its survivors (bench/stryker/triage/*.yaml): each
// surviving mutant is matched by an entry pinned to its place (file, line, column, mutator, the
// source text it mutated and its replacement), so the score over the non-equivalent mutants is computed, not
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
  /**
   * The pin (with `line`): the 1-based column where the mutated text starts, and Stryker's mutator.
   * A pinned entry matches only the survivor at that place (and of that mutator, when named), so it
   * never excuses a mutant it was not written for; when the text is no longer at that place the
   * entry is stale (movedEntries), never matched elsewhere.
   */
  column?: number;
  mutator?: string;
  /** Set by the migration when the text occurs more than once and nothing said which: matches nothing. */
  ambiguous?: boolean;
}

/** A pinned entry: file, line, column (and mutator when known). Only these excuse a survivor. */
export function isPinned(t: TriageEntry): boolean {
  return t.line !== undefined && t.column !== undefined && !t.ambiguous;
}

/** Does the source still hold the entry's text at its pinned place? (false: the code moved; the entry is stale) */
export function textAtPin(source: string, t: TriageEntry): boolean {
  if (t.line === undefined || t.column === undefined) return false;
  const lines = source.split('\n');
  if (t.line > lines.length) return false;
  const from = lines
    .slice(t.line - 1)
    .join('\n')
    .slice(t.column - 1);
  const want = t.original.endsWith('...') ? squash(t.original.slice(0, -3)) : squash(t.original);
  return squash(from).startsWith(want);
}

/** Pinned entries of these files whose text is no longer at their place: stale, they excuse nothing. */
export function movedEntries(
  triage: readonly TriageEntry[],
  sources: ReadonlyMap<string, string>,
): TriageEntry[] {
  return triage.filter((t) => {
    const source = sources.get(t.file);
    return source !== undefined && isPinned(t) && !textAtPin(source, t);
  });
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
  /** Stopped at its bound with no verdict: a timeout, counted apart, never a kill. */
  timedOut?: boolean;
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
  /** Kills that did not reproduce when run again (bench/stryker/confirm.ts): not kills, not excused. */
  unconfirmed?: number;
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
 * The triage entry of a survivor: a pinned entry (isPinned) at the survivor's own start line and
 * column, of its mutator when the entry names one, with the same replacement and the entry's
 * `original` equal to the mutated text or, for a long span (a whole block or function), its start.
 * Unpinned and ambiguous entries excuse nothing: the text alone matched mutants an entry was not
 * written for (issue 29: at least 51 kills matched an entry written for another line).
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
  const { start } = survivor.location;
  return triage.find(
    (t) =>
      isPinned(t) &&
      t.line === start.line &&
      t.column === start.column &&
      (t.mutator === undefined || t.mutator === survivor.mutator) &&
      matches(t),
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
        if (result?.timedOut) {
          // As Stryker's own timeouts: apart, neither a kill nor a survivor.
          judgement.timedOut += 1;
          continue;
        }
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
  /** Killed of all mutants judged (timeouts are not kills: they count as not killed). */
  raw: number;
  /**
   * Killed of killed + timeouts + blind spots + not triaged: the mutants not excused as equivalent,
   * unobservable or outside the API. A timeout is not a kill (the run said nothing) and not excused.
   */
  nonEquivalent: number;
  killed: number;
  timedOut: number;
  /** Survivors excused, by verdict (equivalent, unobservable, not-the-api). */
  excused: Record<string, number>;
  judged: number;
  equivalent: number;
  open: number;
  untriaged: number;
}

export function score(judgements: readonly Judgement[]): Score {
  const killed = judgements.reduce((n, j) => n + j.killed, 0);
  const timedOut = judgements.reduce((n, j) => n + j.timedOut, 0);
  const unconfirmed = judgements.reduce((n, j) => n + (j.unconfirmed ?? 0), 0);
  const survivors = judgements.flatMap((j) => j.survivors);
  const open = judgements.flatMap(openSurvivors);
  const judged = killed + timedOut + unconfirmed + survivors.length;
  const excused: Record<string, number> = {};
  for (const s of survivors)
    if (s.triage && s.triage.verdict !== 'blind-spot')
      excused[s.triage.verdict] = (excused[s.triage.verdict] ?? 0) + 1;
  const counted = killed + timedOut + unconfirmed + open.length;
  return {
    raw: judged ? killed / judged : Number.NaN,
    nonEquivalent: counted ? killed / counted : Number.NaN,
    killed,
    timedOut,
    excused,
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
    if (t.column !== undefined && !(Number.isInteger(t.column) && (t.column as number) > 0))
      problems.push(`${at}: column is not a column number`);
    if (t.mutator !== undefined && typeof t.mutator !== 'string')
      problems.push(`${at}: mutator is not a name`);
    if (t.ambiguous !== undefined && typeof t.ambiguous !== 'boolean')
      problems.push(`${at}: ambiguous is not true or false`);
  }
  return problems;
}
