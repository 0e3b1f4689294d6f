// Reads runner shares from directories (one per runner, e.g. copied from k6-operator pods' shared
// volume): `runner.json` ({ name, segment, exitCode, thresholds }) beside `samples.jsonl` (k6's
// `--out json`). A directory without either file is a missing share, reported by its path.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MergeResult, mergeRunners, type RunnerOutput } from './samples.ts';

export interface RunnerMeta {
  name: string;
  segment: string;
  exitCode: number | null;
  /** The target the runner loaded, when the launcher knew it (never a credential). */
  target?: { name: string; apiBaseUrl: string };
  /**
   * The profile's thresholds, as k6 was given them (strings, or k6's { threshold } objects); when
   * absent, read from `options.json` beside it (`k6 inspect`'s output: a pod's shell writes that).
   */
  thresholds?: Record<string, (string | { threshold: string })[]>;
}

export interface ReadShares {
  runners: RunnerOutput[];
  thresholds: Record<string, string[]>;
  /** Directories that held no readable share. */
  unreadable: string[];
  target?: { name: string; apiBaseUrl: string };
}

export function readRunnerDirs(dirs: string[]): ReadShares {
  const runners: RunnerOutput[] = [];
  const unreadable: string[] = [];
  let thresholds: Record<string, string[]> = {};
  let target: ReadShares['target'];
  for (const dir of dirs) {
    const metaPath = join(dir, 'runner.json');
    const samplesPath = join(dir, 'samples.jsonl');
    if (!existsSync(metaPath)) {
      unreadable.push(`${dir}: no runner.json`);
      continue;
    }
    let meta: RunnerMeta;
    try {
      meta = JSON.parse(readFileSync(metaPath, 'utf8')) as RunnerMeta;
    } catch {
      unreadable.push(`${dir}: runner.json is not JSON (truncated?)`);
      continue;
    }
    thresholds = { ...thresholds, ...thresholdStrings(meta.thresholds ?? optionsThresholds(dir)) };
    target ??= meta.target;
    const text = existsSync(samplesPath) ? readFileSync(samplesPath, 'utf8') : '';
    runners.push({ name: meta.name, segment: meta.segment, exitCode: meta.exitCode, text });
  }
  return { runners, thresholds, unreadable, ...(target ? { target } : {}) };
}

/**
 * The one merge of shares in directories, for the launcher and merge:load alike (so both give the
 * same verdict): a directory with no readable share makes the verdict incomplete too.
 */
export function mergeRunnerDirs(dirs: string[]): { merged: MergeResult; read: ReadShares } {
  const read = readRunnerDirs(dirs);
  const merged = mergeRunners(read.runners, read.thresholds);
  // With no threshold there is nothing to judge: passing would prove nothing.
  if (read.runners.length > 0 && Object.keys(read.thresholds).length === 0) {
    read.unreadable.push(
      'no share carried the thresholds (runner.json "thresholds", or options.json from k6 inspect)',
    );
  }
  if (read.unreadable.length > 0) {
    merged.incomplete.push(...read.unreadable);
    merged.verdict = 'incomplete';
  }
  return { merged, read };
}

/**
 * k6's thresholds as their expressions: k6 also takes `{ threshold, abortOnFail }` objects (as
 * `k6 inspect` prints them), judged on the union alike.
 */
export function thresholdStrings(raw: Record<string, unknown[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(raw)) {
    out[name] = (Array.isArray(list) ? list : []).map((t) =>
      typeof t === 'string' ? t : String((t as { threshold?: unknown }).threshold ?? ''),
    );
  }
  return out;
}

/** The thresholds of `k6 inspect`'s output in the share's directory, or none. */
function optionsThresholds(dir: string): Record<string, unknown[]> {
  const path = join(dir, 'options.json');
  if (!existsSync(path)) return {};
  try {
    const options = JSON.parse(readFileSync(path, 'utf8')) as {
      thresholds?: Record<string, unknown[]> | null;
    };
    return options.thresholds ?? {};
  } catch {
    return {};
  }
}
