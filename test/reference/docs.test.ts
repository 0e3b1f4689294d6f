// docs/reference-server.md renders the fault table: it must list every fault of the code with its rule.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHOICES, FAULTS } from '../../src/reference/index.ts';

const readme = readFileSync(new URL('../../docs/reference-server.md', import.meta.url), 'utf8');
const section =
  /<!-- BEGIN section:reference -->([\s\S]*?)<!-- END section:reference -->/.exec(readme)?.[1] ?? '';

describe('docs/reference-server.md', () => {
  it('lists every fault with its rule (regenerate with --list-faults --markdown)', () => {
    const rows = section.split('\n').filter((line) => /^\| `[a-z0-9-]+` \| [A-Z]+-\d{2} \|/.test(line));
    expect(rows).toEqual(
      FAULTS.map((f) => `| \`${f.name}\` | ${f.rule} | ${f.description.replace(/\|/g, '\\|')} |`),
    );
  });

  it('lists every switchable choice with what the spec does not show (regenerate with --list-choices --markdown)', () => {
    const rows = section
      .split('\n')
      .filter(
        (line) => /^\| `[a-z0-9-]+` \|/.test(line) && !/^\| `[a-z0-9-]+` \| [A-Z]+-\d{2} \|/.test(line),
      );
    expect(rows).toEqual(
      Object.entries(CHOICES).map(([name, c]) => `| \`${name}\` | ${c.notShown} | ${c.answers} |`),
    );
    for (const [name, c] of Object.entries(CHOICES)) {
      for (const value of c.values) expect(c.answers, `${name}=${value}`).toContain(`\`${value}\``);
    }
  });

  it('names how to start the server and list the faults', () => {
    expect(section).toContain('npm run reference-server -- --control');
    expect(section).toContain('npm run reference-server -- --list-faults');
  });
});
