// How k6 gets onto a machine is told in one place, docs/load.md's "Installing k6", and it tells
// what the code does: npm test's pretest builds the pinned release into .tools/bin, findK6 looks in
// its places in their order, and the real-k6 tests skip only without k6 and Go. The other documents
// link there instead of telling it again (they drifted before: ".ci/run installs k6", "with Go but no
// k6 they fail").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { K6_PLACES, K6_VERSION } from '../../src/launcher/find-k6.ts';
import { ROOT } from '../load/cli-run.ts';
import { MISSING_K6 } from '../load/k6-run.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function installSection(): string {
  const load = read('docs/load.md');
  const start = load.indexOf('## Installing k6');
  const end = load.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(-1);
  return load.slice(start, end).replace(/\s+/g, ' ');
}

/** Markdown files people read, except CONTRIBUTING.md and the one place itself. */
function otherDocs(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].filter((f) => f !== 'docs/load.md');
}

describe('the k6 install story', () => {
  it('docs/load.md tells what npm test, findK6 and the real-k6 tests do', () => {
    const text = installSection();
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toContain('src/launcher/ensure-k6.ts');
    expect(text).toContain(
      '**`npm test` builds it for you:** its `pretest` step (`src/launcher/ensure-k6.ts`)',
    );
    expect(text).toContain(
      `go install go.k6.io/k6@${K6_VERSION}\` into the project's git-ignored \`.tools/bin\``,
    );
    expect(text).toContain(`look for \`k6\` in this order: ${K6_PLACES.map((p) => `\`${p}\``).join(', ')}`);
    expect(text).toContain('With neither k6 nor Go it says so and the real-k6 tests');
    // What the tests say when Go is there but k6 is not: run npm test, as the section says.
    expect(MISSING_K6).toContain('run npm test (its pretest step builds k6 into .tools/bin)');
    expect(text).not.toMatch(/\.ci\/run` installs|they fail and tell you to run `\.ci\/run`/);
  });

  it('no other document tells it again: they link to docs/load.md#installing-k6', () => {
    for (const file of otherDocs()) {
      const telling = read(file)
        .split('\n')
        .filter(
          (line) => /\bk6\b/.test(line) && /go install|GOBIN|\.tools\/bin|brew install|GOPATH/.test(line),
        );
      expect(telling, file).toEqual([]);
    }
    expect(read('README.md')).toContain('(docs/load.md#installing-k6)');
  });
});
