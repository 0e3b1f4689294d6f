// Which checks a conformance run was asked for beyond areas: --check ids (with * and ? globs),
// --rule ids, and --last-failed (the failed checks of the target's last complete run). Checks are
// selected by their id, the first word of their test's name (check() in src/checks/define.ts); the
// invariants (INV-*) are no tests but verdicts over every answer of the run, so selecting one runs
// every check. A selection's reports go to <reports>/filtered/, never over the full run's. What
// needs the invariants or the history is loaded only when asked for (the CLI starts quickly).
import type { TargetName } from '../config/index.ts';
import { globSource, matchesCheck } from '../report/check-globs.ts';

export const FILTERED_FOLDER = 'filtered';

export interface CheckSelection {
  /** Catalogue rule ids (--rule). */
  rules: string[];
  /** Check ids or globs (--check, and --rule given a check id), upper case. */
  checks: string[];
  /** The invariants the check patterns name (filled by checkNamePattern). */
  invariants: string[];
  /** The checks --last-failed takes from the last complete run. */
  lastFailed?: string[];
}

const ID_PATTERN = /^[A-Za-z0-9*?_.-]+$/;

/** Why a --check value cannot name a check, or undefined. */
export function checkPatternProblem(given: string): string | undefined {
  if (ID_PATTERN.test(given) && /[A-Za-z0-9]/.test(given)) return undefined;
  return `--check "${given}" is no check id: letters, digits, -, _ and . with * or ? as wildcards (PAG-BEYOND-*)`;
}

/**
 * vitest's test-name pattern for the selected checks: a test's full name is its suite names and its
 * own, joined by spaces, and its own name starts with its check id. Undefined when the selection
 * names no check, or names an invariant (which judges every answer of the run: every check runs).
 */
export async function checkNamePattern(selection: CheckSelection): Promise<RegExp | undefined> {
  const globs = checkGlobs(selection);
  if (globs.length === 0) return undefined;
  // Loaded only for a selection: the CLI's start (and its one-line refusals) stays quick.
  const { invariantChecks } = await import('../checks/invariants.ts');
  const invariants = invariantChecks().map((c) => c.id);
  selection.invariants = invariants.filter((id) => globs.some((g) => matchesCheck(g, id)));
  // An invariant is no test: the checks whose answers it judged are selected beside it (--last-failed
  // finds them); an invariant alone judges every answer, so every check runs.
  const tests = globs.filter((g) => !/^INV-/i.test(g));
  if (tests.length === 0) return undefined;
  return new RegExp(`(?:^| )(?:${tests.map(globSource).join('|')})(?: |$)`, 'i');
}

/** The check globs of a selection (--check, --rule given a check id, --last-failed). */
export function checkGlobs(selection: CheckSelection): string[] {
  return [...selection.checks, ...(selection.lastFailed ?? [])];
}

/** The selection in the words of the command line, as the reports name it; undefined for none. */
export function selectionText(selection: CheckSelection): string | undefined {
  const words = [
    ...selection.rules.map((id) => `--rule ${id}`),
    ...selection.checks.map((id) => `--check ${id}`),
    ...(selection.lastFailed ? [`--last-failed (${selection.lastFailed.join(', ')})`] : []),
  ];
  return words.length ? words.join(' ') : undefined;
}

export type LastFailed =
  | {
      checks: string[];
      /** The checks whose answers broke a failed invariant: run again for it to judge them. */
      sources: string[];
      of: string;
      none: string;
    }
  | { problem: string };

/** The failed checks of the last complete run against `target` (its comparison point). */
export async function lastFailedChecks(
  dir: string,
  target: { name: TargetName; apiBaseUrl: string; petstoreBaseUrl: string },
): Promise<LastFailed> {
  const [{ comparisonPointPath }, { readPrevious }, { invariantChecks }] = await Promise.all([
    import('../report/comparison-point.ts'),
    import('../report/history.ts'),
    import('../checks/invariants.ts'),
  ]);
  const path = comparisonPointPath(dir, target);
  const read = await readPrevious(path);
  if (read.unreadable) return { problem: `--last-failed: ${path} ${read.unreadable}` };
  if (!read.previous) {
    return {
      problem: `--last-failed: no complete run of the ${target.name} target in ${dir} to take the failures from (${path}); run npm run conformance first`,
    };
  }
  // Kept there only when complete; a planted file is held to that too.
  const incomplete = read.previous.incomplete;
  if (incomplete) return { problem: `--last-failed: ${path} is no complete run (${incomplete})` };
  const checks = read.previous.checks;
  const failed = checks.filter((c) => c.status === 'failed');
  // A failed invariant's exchanges are those of the checks that made them (the same request at the
  // same moment): those checks run again, so it judges the same answers.
  const invariants = new Set(invariantChecks().map((c) => c.id));
  const key = (e: { method: string; url: string; startedAt: string }) =>
    `${e.method} ${e.url} ${e.startedAt}`;
  const breaches = new Set(
    failed.filter((c) => invariants.has(c.id)).flatMap((c) => (c.exchanges ?? []).map(key)),
  );
  const sources = checks
    .filter((c) => !invariants.has(c.id) && (c.exchanges ?? []).some((e) => breaches.has(key(e))))
    .map((c) => c.id);
  const of = `the last complete run (${read.previous.startedAt})`;
  return {
    checks: [...new Set(failed.map((c) => c.id))],
    sources: [...new Set(sources)].filter((id) => !failed.some((c) => c.id === id)),
    of,
    none: `${of} has no failed check`,
  };
}
