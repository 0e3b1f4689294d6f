// What one file's finished mutation pass leaves beside its Stryker report
// (reports/mutation/<name>.done.json), and when `npm run mutation -- --resume` may take it instead of
// running the file again: a whole run takes hours here, and a run stopped half-way (a session's end,
// a CI limit) must continue to a figure that is still of one commit.
import type { KilledBy } from './confirm.ts';

export interface ConfirmedKill extends KilledBy {
  at: string;
  mutator?: string;
  original: string;
  replacement: string;
}

export interface FileRecord {
  /** The commit the pass ran at (recorded only from a clean tree). */
  commit: string;
  /** Stryker's --mutate for the file: the file, or its line ranges. */
  spec: string;
  date: string;
  seconds: number;
  /** Whether its kills were run again (not with --no-confirm). */
  confirmed: boolean;
  /** Whether its survivors were run against their variants (not with --no-variants). */
  variants: boolean;
  notReproduced: number;
  /** Its reproduced kills, with the checks that failed them. */
  kills: ConfirmedKill[];
}

/**
 * The record a resumed run may use: of this commit, of the same lines, confirmed when this run
 * confirms and with its variants run when this run runs them. A record cut short (the run killed mid-write) or of another shape is not used.
 */
export function resumableRecord(
  text: string,
  want: { commit: string; spec: string; confirm: boolean; variants: boolean },
): FileRecord | undefined {
  let record: Partial<FileRecord>;
  try {
    record = JSON.parse(text) as Partial<FileRecord>;
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null || !Array.isArray(record.kills)) return undefined;
  if (typeof record.notReproduced !== 'number' || typeof record.seconds !== 'number') return undefined;
  if (record.commit !== want.commit || want.commit === '' || record.spec !== want.spec) return undefined;
  if (want.confirm && record.confirmed !== true) return undefined;
  if (want.variants && record.variants !== true) return undefined;
  return record as FileRecord;
}
