// The one place that decides what a check's vitest test means: passed, failed (fails the run),
// failed SHOULD non-strict (reported as failed, does not fail the run), skipped with its reason,
// or not run (the run ended first). The report, the fault matrix, the closing line, the console
// tree and the CLI's exit code all read this, so they cannot disagree.
import { stripVTControlCharacters } from 'node:util';
import type { TestCase } from 'vitest/node';
import { reasonOf } from '../checks/failure.ts';
import { firstLine } from '../client/errors.ts';
import '../checks/meta.ts';

export type Outcome =
  | { kind: 'passed' }
  /** nonStrict: a SHOULD check failed while CONFORMANCE_STRICT is off: reported, not fatal. */
  | { kind: 'failed'; nonStrict: boolean; reason: string }
  | { kind: 'skipped'; reason: string }
  /** The run ended (interrupted, bail) before the check finished. */
  | { kind: 'not-run'; reason: string };

/** Project whose tests are the suite's own self-tests, never conformance checks. */
export const SELF_PROJECT = 'self';

/** What @vitest/runner notes on the tests of a run cancelled before they finished. */
const VITEST_ABORTED_NOTE = 'The test run was aborted by the user.';
export const NOT_RUN_REASON = 'not run (interrupted): the run ended before this check finished';
const NO_SKIP_REASON = 'skipped (no reason given)';
const MAX_REASON = 4000;

const capped = (text: string) => (text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text);

export function errorText(error: { message?: string; name?: string } | undefined): string {
  return capped(stripVTControlCharacters(error?.message ?? error?.name ?? 'unknown error').trim());
}

/**
 * The outcome of one test, or undefined when the test is no part of this run: a filter
 * (--rule, --area, -t, a tag filter) left it out, so it is not reported at all.
 */
export function outcomeOf(test: TestCase): Outcome | undefined {
  const meta = test.meta().conformance;
  const result = test.result();
  switch (result.state) {
    case 'passed':
      return meta?.softFailure
        ? { kind: 'failed', nonStrict: true, reason: meta.softFailure }
        : { kind: 'passed' };
    case 'failed':
      return {
        kind: 'failed',
        nonStrict: false,
        // The failure as the check recorded it (redacted data); vitest's error only for a test
        // that failed outside check() (a hook, a suite that could not load).
        reason: meta?.failure
          ? capped(reasonOf(meta.failure))
          : // One line each: vitest's own errors (a timeout) run on with advice.
            result.errors?.map((e) => firstLine(errorText(e))).join('; ') || 'failed',
      };
    case 'skipped':
      // A cancelled run (Ctrl-C, SIGTERM) marks what it did not finish skipped with vitest's note.
      if (meta?.skipReason === undefined && result.note === VITEST_ABORTED_NOTE) {
        return { kind: 'not-run', reason: NOT_RUN_REASON };
      }
      // A check that skipped itself has run (its meta is set); a test skipped before it started
      // was left out by a filter, unless it was meant to run (mode 'run') and the run ended first.
      if (meta?.skipReason !== undefined || result.note) {
        return { kind: 'skipped', reason: meta?.skipReason ?? result.note ?? NO_SKIP_REASON };
      }
      if (test.options.mode === 'run') return { kind: 'not-run', reason: NOT_RUN_REASON };
      // A self-test skipped on purpose (it.skipIf) is a skip; a conformance check is filtered out.
      return test.project.name === SELF_PROJECT ? { kind: 'skipped', reason: NO_SKIP_REASON } : undefined;
    default:
      return { kind: 'not-run', reason: NOT_RUN_REASON };
  }
}

export interface OutcomeCounts {
  passed: number;
  /** Failures that fail the run (MUST, or SHOULD when strict). */
  failed: number;
  /** SHOULD failures while not strict: counted as failed in every report, but not fatal. */
  nonStrict: number;
  /** Skipped, and not run because the run ended first (their reason says which). */
  skipped: number;
}

export function emptyCounts(): OutcomeCounts {
  return { passed: 0, failed: 0, nonStrict: 0, skipped: 0 };
}

export function addOutcome(counts: OutcomeCounts, outcome: Outcome | undefined): OutcomeCounts {
  if (!outcome) return counts;
  if (outcome.kind === 'passed') counts.passed++;
  else if (outcome.kind === 'failed') outcome.nonStrict ? counts.nonStrict++ : counts.failed++;
  else counts.skipped++;
  return counts;
}

/** "65 passed, 2 failed (1 of them SHOULD or advice, not failing the run), 3 skipped": every console total says it so. */
export function countsText(counts: OutcomeCounts): string {
  const failed = counts.failed + counts.nonStrict;
  const soft = counts.nonStrict ? ` (${counts.nonStrict} of them SHOULD or advice, not failing the run)` : '';
  return `${counts.passed} passed, ${failed} failed${soft}, ${counts.skipped} skipped`;
}
