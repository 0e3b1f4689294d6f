// The README is where a user starts: short, the two commands as written, every link and picture
// pointing at a file that exists, every npm script it names defined.
import { existsSync, readFileSync } from 'node:fs';
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
