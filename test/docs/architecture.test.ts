// docs/architecture.md cannot drift from the code: its table of rooms and arrows (which folder
// imports which) must equal the imports the code has, arrow for arrow, and every room it names
// must exist. An import that adds an arrow fails here until the table says so.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The room of a file: a folder of src/, suites/, load/ (the k6 scripts) or common/. */
function roomOf(path: string): string | undefined {
  const r = relative(ROOT, path).split('\\').join('/');
  if (r.startsWith('common/')) return 'common/';
  if (r.startsWith('load/')) return 'load/';
  if (r.startsWith('suites/')) return 'suites/';
  const src = /^src\/([^/]+)\//.exec(r);
  return src ? `src/${src[1]}/` : undefined;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every file of the code and the files it imports (relative imports: static, dynamic, type-only). */
function fileImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of ['src', 'suites', 'load', 'common'].flatMap((d) => sources(join(ROOT, d)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      relative(ROOT, file),
      importedFiles
        .filter((i) => i.fileName.startsWith('.'))
        .map((i) => relative(ROOT, resolve(dirname(file), i.fileName))),
    );
  }
  return graph;
}

/** The import circles of a graph: each strongly connected set of more than one node (Tarjan). */
function circles(graph: Map<string, Iterable<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w) circle.push(w);
    } while (w && w !== v);
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every arrow of the code: `from -> to` for each relative import (static, dynamic, type-only). */
function codeArrows(): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const file of ['src', 'suites', 'load', 'common'].flatMap((d) => sources(join(ROOT, d)))) {
    const from = roomOf(file);
    if (!from) continue;
    arrows.set(from, arrows.get(from) ?? new Set());
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = roomOf(resolve(dirname(file), fileName));
      if (to && to !== from) arrows.get(from)?.add(to);
    }
  }
  return arrows;
}

/** The table between the rooms markers: `| \`room\` | \`a\`, \`b\` |` (or "nothing"). */
function docArrows(): Map<string, Set<string>> {
  const block = /<!-- BEGIN rooms -->([\s\S]*?)<!-- END rooms -->/.exec(DOC)?.[1] ?? '';
  const arrows = new Map<string, Set<string>>();
  for (const line of block.split('\n')) {
    const cells = /^\| `([^`]+)` \| (.*) \|$/.exec(line.trim());
    if (!cells?.[1]) continue;
    arrows.set(cells[1], new Set([...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '')));
  }
  return arrows;
}

const listed = (arrows: Map<string, Set<string>>) =>
  [...arrows].flatMap(([from, tos]) => [...tos].map((to) => `${from} -> ${to}`)).sort();

describe('docs/architecture.md, rooms and arrows', () => {
  const code = codeArrows();
  const doc = docArrows();

  it('names every room of the code, and no room the code does not have', () => {
    expect(doc.size, 'the table between <!-- BEGIN rooms --> and <!-- END rooms -->').toBeGreaterThan(5);
    expect([...doc.keys()].sort()).toEqual([...code.keys()].sort());
  });

  it('draws exactly the arrows the imports make', () => {
    const inCode = listed(code);
    const inDoc = listed(doc);
    expect(
      inCode.filter((a) => !inDoc.includes(a)),
      'imports the table does not show (add them to docs/architecture.md, or remove the import)',
    ).toEqual([]);
    expect(
      inDoc.filter((a) => !inCode.includes(a)),
      'arrows no import makes (remove them)',
    ).toEqual([]);
  });

  it('has no import circle, between rooms or between files', () => {
    expect(circles(code), 'rooms importing each other').toEqual([]);
    expect(circles(fileImports()), 'files importing each other').toEqual([]);
  });

  it('keeps the house rules: the reference server and load/ stand alone', () => {
    expect([...(code.get('src/reference/') ?? [])].filter((to) => to !== 'common/')).toEqual([]);
    expect([...(code.get('load/') ?? [])].filter((to) => to !== 'common/')).toEqual([]);
    expect([...(code.get('common/') ?? [])]).toEqual([]);
  });
});
