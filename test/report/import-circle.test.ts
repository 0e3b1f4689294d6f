// No module of the report reaches itself through its imports. html.ts and load-runs.ts imported
// each other (html.ts for the load-run entry type, load-runs.ts to render index.html again when a
// load run ends); the entry type now has its own module. Type-only imports count: they tie the two
// modules' contents together just the same.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every file-level circle among the given files, each as the list of files it passes through. */
function circles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    edges.set(
      file,
      importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name))
        .filter((to) => known.has(to)),
    );
  }
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of edges.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found.map((c) => c.map((f) => relative(ROOT, f)));
}

describe('imports of src/report/', () => {
  it('finds a circle when there is one (the detector itself can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circle-'));
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = B;\n");
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a.ts';\nexport type B = 1;\n");
    writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.ts';\n");
    try {
      expect(circles(sources(dir)).map((c) => c.map((f) => f.split('/').pop()))).toEqual([
        ['a.ts', 'b.ts', 'a.ts'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('have no circle: html.ts no longer imports load-runs.ts, which renders it', () => {
    expect(circles(sources(join(ROOT, 'src/report')))).toEqual([]);
  });
});
