// What changed since the previous run: the checks whose status differs, newly failing first.

import { readFile } from 'node:fs/promises';
import { EXIT_FAILED, EXIT_PASSED, EXIT_SETUP, SIGNAL_EXIT_CODES } from '../../common/exit-codes.ts';
import { firstLine } from '../client/errors.ts';
import { notAComparisonPoint, sameTargetOf } from './comparison-point.ts';
import { readBackResults } from './read-back.ts';
import type { CheckStatus, ConformanceResults, ExitCode, History, StatusChange } from './types.ts';

type Previous = Pick<ConformanceResults, 'startedAt' | 'exitCode' | 'checks'> & {
  target?: ConformanceResults['target'];
  /** Why this run cannot be a comparison point (interrupted, filtered, ...); absent when it can. */
  incomplete?: string;
};

/** The previous run, none (no file: a first run), or why the file there cannot serve as history. */
export type PreviousRun =
  | { previous: Previous; unreadable?: undefined }
  | { previous?: undefined; unreadable?: string };

const EXIT_CODES = [EXIT_PASSED, EXIT_FAILED, EXIT_SETUP, ...Object.values(SIGNAL_EXIT_CODES)] as const;

/** The previous results; never throws: a file that does not parse is ignored, with the reason. */
export async function readPrevious(path: string): Promise<PreviousRun> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { unreadable: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let data: Partial<Previous> | null;
  try {
    data = JSON.parse(text) as Partial<Previous> | null;
  } catch (error) {
    return { unreadable: `does not parse (${firstLine(error)})` };
  }
  if (!data || typeof data.startedAt !== 'string' || !Array.isArray(data.checks)) {
    return { unreadable: 'is not a results file (no startedAt or checks)' };
  }
  // Untrusted (a restored cache, a downloaded artifact): held to its schema before any field is used.
  const held = readBackResults(data);
  if (!held.ok) return { unreadable: held.reason };
  const checks = data.checks.filter(
    (c) => c && typeof c.id === 'string' && ['passed', 'failed', 'skipped'].includes(c.status),
  );
  const exitCode = EXIT_CODES.find((code) => code === data.exitCode) ?? 2;
  const target = data.target;
  const known = target && typeof target.apiBaseUrl === 'string' && typeof target.petstoreBaseUrl === 'string';
  const incomplete = notAComparisonPoint(held.value);
  return {
    previous: {
      startedAt: data.startedAt,
      exitCode: exitCode as ExitCode,
      checks,
      ...(known ? { target } : {}),
      ...(incomplete ? { incomplete } : {}),
    },
  };
}

/**
 * Why the previous run cannot be compared with this one, or undefined when it can: only a run
 * against the same target (both base addresses; the embedded server whatever its port) says what
 * changed; a local run between two staging runs would otherwise fill the history with differences
 * of the servers, not of time.
 */
export function notComparable(
  previous: Previous,
  current: Pick<ConformanceResults, 'target'>,
): string | undefined {
  const before = previous.target;
  if (!before) return 'name no target';
  return sameTargetOf(before, current.target) ? undefined : `are of another target (${before.apiBaseUrl})`;
}

// Newly failing first, then newly passing (fixed), then the rest.
function rank(change: StatusChange): number {
  if (change.to === 'failed') return 0;
  if (change.from === 'failed') return 1;
  if (change.to === 'passed') return 2;
  return 3;
}

export function diffRuns(previous: Previous, current: ConformanceResults): History {
  const before = new Map(previous.checks.map((c) => [c.id, c]));
  const now = new Set(current.checks.map((c) => c.id));
  const changes: StatusChange[] = [];
  for (const check of current.checks) {
    const from: CheckStatus | 'absent' = before.get(check.id)?.status ?? 'absent';
    if (from !== check.status) {
      changes.push({ id: check.id, title: check.title, area: check.area, from, to: check.status });
    }
  }
  // A check that is gone only counts when this run would have run it (same area, no filter).
  if (!current.scope.filtered) {
    for (const check of previous.checks) {
      if (!now.has(check.id) && current.scope.areas.includes(check.area)) {
        changes.push({
          id: check.id,
          title: check.title,
          area: check.area,
          from: check.status,
          to: 'absent',
        });
      }
    }
  }
  changes.sort((a, b) => rank(a) - rank(b));
  return {
    previousStartedAt: previous.startedAt,
    previousExitCode: previous.exitCode as ExitCode,
    changes,
  };
}
