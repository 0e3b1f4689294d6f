// npx tsx bench/stryker/pin-triage.ts [--check]: pins each entry of bench/stryker/triage/*.yaml to
// its place (line and column of its text in the current source), since an entry matched on text
// alone excused mutants it was not written for (issue 29). An entry already pinned is left as is.
// Where the text occurs once (or once on the entry's own `line`), it is pinned; where it occurs more
// than once and nothing says which, it is marked `ambiguous: true` (it excuses nothing until a person
// pins it): no guess. Where it no longer occurs, it is left unpinned and named. The mutator is not
// known from the source; it is added by hand or from a Stryker report. --check: print, write nothing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isMap, parseDocument } from 'yaml';

const TRIAGE = 'bench/stryker/triage';
const check = process.argv.includes('--check');

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const counts = { pinned: 0, already: 0, ambiguous: 0, missing: 0 };
  for (const name of readdirSync(TRIAGE).filter((f) => f.endsWith('.yaml'))) {
    const path = `${TRIAGE}/${name}`;
    const doc = parseDocument(readFileSync(path, 'utf8'));
    const items = (doc.contents as { items?: unknown[] } | null)?.items ?? [];
    const sources = new Map<string, string>();
    for (const item of items) {
      if (!isMap(item)) continue;
      const file = String(item.get('file'));
      const original = String(item.get('original'));
      if (item.get('line') !== undefined && item.get('column') !== undefined) {
        counts.already += 1;
        continue;
      }
      if (!sources.has(file)) sources.set(file, readFileSync(file, 'utf8'));
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
    `pin-triage: ${counts.pinned} pinned now, ${counts.already} already pinned, ${counts.ambiguous} ambiguous, ${counts.missing} not found`,
  );
}
