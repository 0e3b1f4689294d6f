// The one table of configuration variables (common/variables.ts) against everything that
// names them: the docs table, .env.example, the validator's secrets and defaults, the k6 hand-over
// and the configuration tests' list. A variable added, renamed or re-defaulted in one place only fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAND_OVER_KEYS } from '../../common/hand-over.ts';
import { docsRow, VARIABLES, variableNames } from '../../common/variables.ts';
import { SECRET_VARIABLES } from '../../src/config/index.ts';
import { envExampleText, withVariableTable } from '../../src/config/variable-docs.ts';
import { TARGET_VARIABLES } from '../../src/launcher/k6-env.ts';
import { KNOWN_VARIABLES, settingsOf } from '../config/helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the table of configuration variables', () => {
  it('is the table of docs/configuration.md, row for row (run npm run docs:variables when this fails)', () => {
    const docs = read('docs/configuration.md');
    expect(docs, 'docs/configuration.md differs from the table: run npm run docs:variables').toBe(
      withVariableTable(docs),
    );
    const rows = docs.split('\n').filter((line) => /^\| `[A-Z0-9_]+` \|/.test(line));
    expect(rows).toEqual(VARIABLES.map(docsRow));
  });

  it('is .env.example, line for line (run npm run docs:variables when this fails)', () => {
    expect(read('.env.example'), '.env.example differs from the table: run npm run docs:variables').toBe(
      envExampleText(),
    );
  });

  it('sets in .env.example the table defaults and no secret, and shows every setting', () => {
    const named = [...envExampleText().matchAll(/^(# )?([A-Z][A-Z0-9_]+)=(.*)$/gm)];
    for (const [, commented, name, value] of named) {
      const variable = VARIABLES.find((v) => v.name === name);
      if (variable?.secret) expect(value, name).toBe('');
      if (!commented && value !== '') expect(value, name).toBe(variable?.default);
    }
    expect(named.map((m) => m[2])).toEqual(variableNames((v) => v.dotenv !== undefined));
    expect(variableNames((v) => v.key !== undefined && !v.loadRun && !v.dotenv)).toEqual([]);
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
    // The validated settings' variables: a key of the settings, not a load run's own, not tests only.
    expect([...KNOWN_VARIABLES]).toEqual(
      variableNames((v) => v.key !== undefined && !v.loadRun && !v.testsOnly),
    );
  });

  it('marks the variables the load CLI hands to k6: the hand-over holds them under their keys', () => {
    const k6Rows = VARIABLES.filter((v) => v.k6);
    for (const row of k6Rows) expect(row.key, row.name).toBeDefined();
    expect(HAND_OVER_KEYS).toEqual([...k6Rows.map((v) => v.key), 'reportDir']);
    expect(TARGET_VARIABLES).toEqual(variableNames((v) => v.k6));
    expect(TARGET_VARIABLES).toContain('API_BASE_URL');
    // Only the target's own variables: the reports folder and the suite's switches are not k6's.
    expect(TARGET_VARIABLES).not.toContain('CONFORMANCE_STRICT');
  });
});

/** The load side's code: the k6 scripts and their library, the launcher, the load CLI. */
function loadSideFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.ts') ? [path] : [];
    });
  return [...walk(join(ROOT, 'load')), ...walk(join(ROOT, 'src/launcher')), join(ROOT, 'src/cli/load.ts')];
}

/** Variables that are not ours to describe: the shell's, the terminal's, k6's own (set for it). */
const NOT_OURS = ['PATH', 'HOME', 'NO_COLOR', 'FORCE_COLOR', 'K6_NO_USAGE_REPORT', 'LOAD_TARGET'];

describe('every variable the load side reads', () => {
  it('is in the one table (or is a flag of the CLI): no RATE_/FLAG_/RELEASE_/LOCAL_ variable read unlisted', () => {
    const read = new Map<string, string>();
    const patterns = [
      /\b(?:env|__ENV)\.([A-Z][A-Z0-9_]{2,})\b/g,
      /\b(?:env|__ENV)\[['"]([A-Z][A-Z0-9_]{2,})['"]\]/g,
      /\b(?:envString|envNumber|envDuration|envChoice|envSwitch|positiveInteger|optional|baseUrl|allowSwitch)\((?:env, |process\.env, )?'([A-Z][A-Z0-9_]{2,})'/g,
    ];
    for (const file of loadSideFiles()) {
      const code = readFileSync(file, 'utf8');
      for (const pattern of patterns) {
        for (const match of code.matchAll(pattern)) read.set(match[1] as string, relative(ROOT, file));
      }
    }
    const listed = new Set(VARIABLES.map((v) => v.name));
    const unlisted = [...read].filter(([name]) => !listed.has(name) && !NOT_OURS.includes(name));
    expect(unlisted, 'add them to common/variables.ts, then npm run docs:variables').toEqual([]);
    // The scan sees the load variables at all (so an empty result means something).
    for (const name of ['RATE_BUDGET', 'FLAG_TICK', 'RELEASE_VUS', 'LOCAL_FAULTS', 'RELEASE_PETS']) {
      expect(read.has(name), name).toBe(true);
    }
  });

  it('reads LOAD_PROFILE and RELEASE_PETS once per run: the CLI hands them over, the scripts read them only when run directly', () => {
    const files = loadSideFiles().map((file) => [relative(ROOT, file), readFileSync(file, 'utf8')] as const);
    const readers = (name: string) =>
      files
        .filter(([, code]) =>
          new RegExp(`(env|__ENV)\\.${name}\\b|\\((env|__ENV|process\\.env), '${name}'[,)]`).test(code),
        )
        .map(([f]) => f)
        .sort();
    expect(readers('LOAD_PROFILE')).toEqual(['load/lib/config.ts', 'src/cli/load.ts']);
    expect(readers('RELEASE_PETS')).toEqual(['load/lib/config.ts', 'src/cli/load.ts']);
    // The CLI sets neither for k6: the profile travels in the hand-over, the pet address is withheld.
    const cli = files.find(([f]) => f === 'src/cli/load.ts')?.[1] ?? '';
    expect(cli).not.toMatch(/LOAD_PROFILE:/);
    expect(HAND_OVER_KEYS).toContain('profile');
  });
});
