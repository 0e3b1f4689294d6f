// The one table of configuration variables (load/lib/shared/variables.ts) against everything that
// names them: the docs table, .env.example, the validator's secrets and defaults, the k6 hand-over
// and the configuration tests' list. A variable added, renamed or re-defaulted in one place only fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsRow, VARIABLES, variableNames } from '../../../load/lib/shared/variables.ts';
import { SECRET_VARIABLES } from '../../../src/config/index.ts';
import { TARGET_VARIABLES } from '../../../src/launcher/k6-env.ts';
import { KNOWN_VARIABLES, settingsOf } from '../../config/helpers.ts';

const ROOT = join(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the table of configuration variables', () => {
  it('is the table of docs/configuration.md, row for row', () => {
    const rows = read('docs/configuration.md')
      .split('\n')
      .filter((line) => /^\| `[A-Z0-9_]+` \|/.test(line));
    expect(rows).toEqual(VARIABLES.map(docsRow));
  });

  it('is what .env.example lists (the .env variables), with the table defaults', () => {
    const text = read('.env.example');
    const named = [...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=(.*)$/gm)];
    const names = named.map((m) => m[1]);
    // The reports folder is read from the environment only; .env.example says so beside it.
    expect(names).toEqual(variableNames((v) => v.envFile || v.name === 'CONFORMANCE_REPORTS_DIR'));
    for (const [line, name, value] of named) {
      const variable = VARIABLES.find((v) => v.name === name);
      if (value !== '' && !line.startsWith('#')) expect(value, name).toBe(variable?.default);
    }
  });

  it('names the secrets the validator keeps out of its messages', () => {
    expect([...SECRET_VARIABLES]).toEqual(variableNames((v) => v.secret));
  });

  it('gives the defaults the validator applies', () => {
    const defaults = settingsOf({});
    const byName = (name: string) => VARIABLES.find((v) => v.name === name)?.default;
    expect(defaults.target).toBe(byName('CONFORMANCE_TARGET'));
    expect(String(defaults.requestTimeoutMs)).toBe(byName('REQUEST_TIMEOUT_MS'));
    expect(defaults.allowProductionWrites ? 'yes' : 'no').toBe(byName('ALLOW_PRODUCTION_WRITES'));
    expect(defaults.strict ? '1' : '0').toBe(byName('CONFORMANCE_STRICT'));
    expect(defaults.slow ? '1' : '0').toBe(byName('CONFORMANCE_SLOW'));
  });

  it('is the list the configuration tests hold every variable to', () => {
    expect([...KNOWN_VARIABLES]).toEqual(variableNames((v) => v.envFile && !v.testsOnly));
  });

  it('marks the variables the load CLI hands to k6', () => {
    expect(TARGET_VARIABLES).toEqual(variableNames((v) => v.k6));
    expect(TARGET_VARIABLES).toContain('API_BASE_URL');
    // Only the target's own variables: the reports folder and the suite's switches are not k6's.
    expect(TARGET_VARIABLES).not.toContain('CONFORMANCE_STRICT');
  });
});
