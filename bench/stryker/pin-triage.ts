// npx tsx bench/stryker/pin-triage.ts [--check]: pins each entry of bench/stryker/triage/*.yaml to
// its place (line and column of its text in the current source), since an entry matched on text
// alone excused mutants it was not written for (issue 29). An entry already pinned is left as is.
// Where the text occurs once (or once on the entry's own `line`), it is pinned; where it occurs more
// than once and nothing says which, it is marked `ambiguous: true` (it excuses nothing until a person
// pins it): no guess. Where it no longer occurs, it is left unpinned and named. The mutator is not
// known from the source; it is added by hand or from a Stryker report. --check: print, write nothing.
// --follow: a pinned entry whose text is no longer at its place (the code moved) follows its line
// through `git diff` from the commit that last wrote its triage file to the working tree, only when
// that line itself is unchanged (an edited or removed line leaves the entry stale, to be judged again).
// --pin NAME.yaml:INDEX=LINE:COLUMN[,...]: a person's pin of an ambiguous entry (pinByHand below).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isMap, parseDocument } from 'yaml';
import { type TriageEntry, textAtPin } from './triage.ts';

const TRIAGE = 'bench/stryker/triage';
const check = process.argv.includes('--check');
const follow = process.argv.includes('--follow');

/**
 * Where each line of the old text is in the new one, from a zero-context unified diff (`git diff
 * -U0`): undefined for a line the diff removed or changed.
 */
export function lineMap(diff: string): (oldLine: number) => number | undefined {
  const hunks = [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)].map((m) => ({
    oldStart: Number(m[1]),
    oldCount: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newCount: m[4] === undefined ? 1 : Number(m[4]),
  }));
  return (line) => {
    let shift = 0;
    for (const h of hunks) {
      // A pure insertion (-a,0) sits after old line a; anything else covers old lines a .. a+count-1.
      const first = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
      if (line < first) break;
      if (h.oldCount > 0 && line < h.oldStart + h.oldCount) return undefined;
      // Zero counts name the line before the gap: "-a,0" inserts after old line a, "+c,0" deletes after new line c.
      shift = h.newStart + Math.max(h.newCount, 1) - (h.oldStart + Math.max(h.oldCount, 1));
    }
    return line + shift;
  };
}

const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout;

const against = new Map<string, { commit: string; source: string } | undefined>();
/**
 * The version of `file` its entries were pinned against: of the file's last 60 versions in the
 * repository (any branch), the newest at which the most pinned entries hold their text at their
 * place. Triage written on a branch may have been pinned against an older source than the commit
 * that holds it, so the commit that last wrote the triage file is not enough.
 */
function pinnedAgainst(
  file: string,
  items: readonly unknown[],
): { commit: string; source: string } | undefined {
  if (against.has(file)) return against.get(file);
  const pinned = items
    .filter(isMap)
    .map((i) => i.toJSON() as TriageEntry)
    .filter((t) => t.file === file && t.line !== undefined && t.column !== undefined && !t.ambiguous);
  let best: { commit: string; source: string; held: number } | undefined;
  for (const commit of git('log', '--all', '-60', '--format=%H', '--', file).split('\n').filter(Boolean)) {
    const source = git('show', `${commit}:${file}`);
    const held = pinned.filter((t) => textAtPin(source, t)).length;
    if (held > (best?.held ?? 0)) best = { commit, source, held };
  }
  against.set(file, best);
  return best;
}

/** Every 1-based (line, column) where the entry's text starts, whitespace runs matching any whitespace. */
export function occurrences(source: string, original: string): { line: number; column: number }[] {
  const cut = original.endsWith('...') ? original.slice(0, -3) : original;
  const words = cut.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'g');
  const found: { line: number; column: number }[] = [];
  for (const m of source.matchAll(pattern)) {
    const before = source.slice(0, m.index);
    const line = before.split('\n').length;
    found.push({ line, column: m.index - before.lastIndexOf('\n') });
  }
  return found;
}

/**
 * --pin NAME.yaml:INDEX=LINE:COLUMN[,LINE:COLUMN...] (repeatable; INDEX is the entry's 0-based place
 * in the file): a person's pin of an ambiguous entry, to each place where its reason was read and
 * holds. The entry takes the first place and a copy of it each further one (one mutant, one entry);
 * a place that does not hold the entry's text refuses the whole command.
 */
function pinByHand(specs: readonly string[]): void {
  const byFile = new Map<string, { index: number; places: { line: number; column: number }[] }[]>();
  for (const spec of specs) {
    const m = /^([\w-]+\.yaml):(\d+)=((?:\d+:\d+,?)+)$/.exec(spec);
    if (!m) throw new Error(`--pin ${spec}: expected NAME.yaml:INDEX=LINE:COLUMN[,LINE:COLUMN...]`);
    const places = (m[3] as string)
      .split(',')
      .filter(Boolean)
      .map((p) => ({ line: Number(p.split(':')[0]), column: Number(p.split(':')[1]) }));
    byFile.set(m[1] as string, [...(byFile.get(m[1] as string) ?? []), { index: Number(m[2]), places }]);
  }
  for (const [name, pins] of byFile) {
    const path = `${TRIAGE}/${name}`;
    const doc = parseDocument(readFileSync(path, 'utf8'));
    const items = (doc.contents as { items: unknown[] }).items;
    // From the last index down, so inserted copies leave the earlier indexes where they were.
    for (const { index, places } of [...pins].sort((a, b) => b.index - a.index)) {
      const item = items[index];
      if (!isMap(item)) throw new Error(`--pin ${name}:${index}: no such entry`);
      const entry = item.toJSON() as TriageEntry;
      const source = readFileSync(entry.file, 'utf8');
      for (const place of places)
        if (!textAtPin(source, { ...entry, ...place }))
          throw new Error(
            `--pin ${name}:${index}: \`${entry.original}\` is not at ${entry.file}:${place.line}:${place.column}`,
          );
      const copies = places.map((place) => {
        const copy = item.clone() as typeof item;
        copy.delete('ambiguous');
        copy.set('line', place.line);
        copy.set('column', place.column);
        return copy;
      });
      items.splice(index, 1, ...copies);
      console.log(
        `pinned by hand: ${entry.file} \`${entry.original}\` -> ${places.map((p) => `${p.line}:${p.column}`).join(', ')}`,
      );
    }
    if (!check) writeFileSync(path, doc.toString({ lineWidth: 0 }));
  }
}

const pins = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--pin' ? [a] : []));
if (import.meta.url === `file://${process.argv[1]}` && pins.length) {
  pinByHand(pins);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const counts = { pinned: 0, already: 0, ambiguous: 0, missing: 0, followed: 0, stale: 0 };
  for (const name of readdirSync(TRIAGE).filter((f) => f.endsWith('.yaml'))) {
    const path = `${TRIAGE}/${name}`;
    const doc = parseDocument(readFileSync(path, 'utf8'));
    const items = (doc.contents as { items?: unknown[] } | null)?.items ?? [];
    const sources = new Map<string, string>();
    for (const item of items) {
      if (!isMap(item)) continue;
      const file = String(item.get('file'));
      const original = String(item.get('original'));
      if (!sources.has(file)) sources.set(file, readFileSync(file, 'utf8'));
      if (item.get('line') !== undefined && item.get('column') !== undefined) {
        counts.already += 1;
        const entry = item.toJSON() as TriageEntry;
        if (follow && !item.get('ambiguous') && !textAtPin(sources.get(file) ?? '', entry)) {
          const since = pinnedAgainst(file, items);
          const moved = since
            ? lineMap(git('diff', '-U0', since.commit, '--', file))(entry.line as number)
            : undefined;
          const there = moved === undefined ? undefined : { ...entry, line: moved };
          // Followed only from a pin that was right in the source it was pinned against.
          if (since && there && textAtPin(since.source, entry) && textAtPin(sources.get(file) ?? '', there)) {
            item.set('line', moved);
            counts.followed += 1;
          } else {
            counts.stale += 1;
            console.log(
              `stale (its line changed since ${since?.commit.slice(0, 7) ?? 'its pin'}): ${file}:${entry.line} \`${original}\``,
            );
          }
        }
        continue;
      }
      const line = item.get('line') as number | undefined;
      const found = occurrences(sources.get(file) ?? '', original).filter(
        (o) => line === undefined || o.line === line,
      );
      if (found.length === 1) {
        const [at] = found as [{ line: number; column: number }];
        item.set('line', at.line);
        item.set('column', at.column);
        item.delete('ambiguous');
        counts.pinned += 1;
      } else if (found.length > 1) {
        item.set('ambiguous', true);
        counts.ambiguous += 1;
        console.log(`ambiguous (${found.length} places): ${file} \`${original}\``);
      } else {
        counts.missing += 1;
        console.log(`not found (code moved or gone): ${file}${line ? `:${line}` : ''} \`${original}\``);
      }
    }
    if (!check) writeFileSync(path, doc.toString({ lineWidth: 0 }));
  }
  console.log(
    `pin-triage: ${counts.pinned} pinned now, ${counts.already} already pinned, ${counts.ambiguous} ambiguous, ${counts.missing} not found` +
      (follow
        ? `; ${counts.followed} moved entries followed to their unchanged line, ${counts.stale} stale`
        : ''),
  );
}
