// The comparison point of a run: the last complete, unfiltered run against the same target, kept in
// <reports>/history/ (one file per target), so that what a run lists as changed is what changed on
// the target, not what a wrong-secret, interrupted or filtered run left out. A run becomes the point
// only when it ran every check of every area and ended with a verdict on the target (exit 0 or 1);
// any other run leaves the point as it was, however many bad runs come in a row.
import { createHash } from 'node:crypto';
import { linkSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { jsonText } from '../../common/safe-text.ts';
import { trimTrailingSlashes } from '../../common/trailing-slashes.ts';
import { reserveTemporaryPath, settleTemporaryPath, writeFileAtomic } from './atomic-write.ts';
import { makeFolder } from './reports-dir-check.ts';
import { isSubset } from './results.ts';
import type { ConformanceResults } from './types.ts';

export const HISTORY_FOLDER = 'history';

type Target = Pick<ConformanceResults['target'], 'name' | 'apiBaseUrl' | 'petstoreBaseUrl'>;

function normalized(url: string): string {
  try {
    return trimTrailingSlashes(new URL(url).href);
  } catch {
    return trimTrailingSlashes(url);
  }
}

/**
 * A target as history names it: its configured addresses. The embedded reference server is one
 * target whatever port a run gave it (each run starts its own on a free port).
 */
export function targetKey(target: Target): string {
  if (target.name === 'local') return 'local';
  return `${target.name} ${normalized(target.apiBaseUrl)} ${normalized(target.petstoreBaseUrl)}`;
}

export function sameTargetOf(a: Target, b: Target): boolean {
  return targetKey(a) === targetKey(b);
}

/** The file holding the comparison point of `target` (readable name, hashed to stay unique). */
export function comparisonPointPath(dir: string, target: Target): string {
  const key = targetKey(target);
  if (key === 'local') return join(dir, HISTORY_FOLDER, 'local.json');
  const host = (url: string) => {
    try {
      return new URL(url).host;
    } catch {
      return 'unknown';
    }
  };
  const readable = `${target.name}-${host(target.apiBaseUrl)}`.replace(/[^\w.-]+/g, '_').slice(0, 80);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return join(dir, HISTORY_FOLDER, `${readable}-${hash}.json`);
}

type Candidate = Pick<ConformanceResults, 'exitCode' | 'problems' | 'scope'>;

/** Why a run cannot be a comparison point, or undefined when it is one. */
export function notAComparisonPoint(results: Candidate): string | undefined {
  if (results.exitCode >= 128) return 'it was interrupted';
  if (results.scope.selection) return `it was filtered (${results.scope.selection})`;
  if (isSubset(results)) return 'it did not run every check of every area';
  if (results.exitCode !== 0 && results.exitCode !== 1)
    return 'it ended without a verdict on the target (exit 2)';
  if (results.problems.length) return 'it had run problems';
  return undefined;
}

/**
 * After a run: it becomes its target's comparison point when it is a complete, unfiltered one.
 * `text`: the results as results.json holds them, when already written (not serialized twice);
 * `writtenAt`: that results.json, linked instead of written again (a hostile target's 16 MB were
 * written twice, with a flush each).
 */
export async function keepComparisonPoint(
  dir: string,
  results: ConformanceResults,
  text = `${jsonText(results, 2)}\n`,
  writtenAt?: string,
): Promise<boolean> {
  if (notAComparisonPoint(results)) return false;
  await makeFolder(join(dir, HISTORY_FOLDER));
  const point = comparisonPointPath(dir, results.target);
  if (writtenAt === undefined || !linked(writtenAt, point)) await writeFileAtomic(point, text);
  return true;
}

/**
 * A second name for a report file, put in place atomically; false when the file system cannot link
 * (another device, no hard links). Sharing the file is safe: reports are only ever replaced by a
 * rename (atomic-write.ts), never edited in place, so neither name can change the other's text.
 */
function linked(from: string, to: string): boolean {
  const temporary = reserveTemporaryPath(to);
  try {
    linkSync(from, temporary);
    renameSync(temporary, to);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  } finally {
    settleTemporaryPath(temporary);
  }
}
