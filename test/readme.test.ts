// The README is where a user starts: short, the two commands as written, every link and picture
// pointing at a file that exists, every npm script it names defined.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const scripts = (
  JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }
).scripts;

describe('README', () => {
  it('stays a quick start of about 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(160);
  });

  it('gives the two commands', () => {
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm ci && npm test');
  });

  it('links only to files that exist', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1] as string);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets.filter((t) => !/^https?:/.test(t))) {
      expect(existsSync(new URL(target, root)), target).toBe(true);
    }
  });

  it('names only npm scripts that exist', () => {
    const named = [...readme.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(3);
    for (const name of named) expect(scripts[name], `npm run ${name}`).toBeDefined();
  });
});

describe('every Markdown file of the repository', () => {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: fileURLToPath(root), encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('node_modules/'));

  // A clone is all a reader has: a link outside it (the spec beside this checkout) resolves nowhere.
  it('links only inside the repository, to files that exist', () => {
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(new URL(file, root), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        const resolved = new URL(target, new URL(file, root));
        expect(resolved.href.startsWith(root.href), `${file}: ${target} leaves the repository`).toBe(true);
        expect(existsSync(resolved), `${file}: ${target}`).toBe(true);
      }
      expect(text.includes('../shared/'), `${file} names a path beside the checkout`).toBe(false);
    }
  });
});
