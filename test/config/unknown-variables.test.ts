// Unknown variables that look like ours get one line naming the closest known one (before: a slip
// such as API_KEY_SECRT=oops in .env was ignored without a word). Names only, never values.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/index.ts';
import { closestKnown, editDistance, unknownVariableWarnings } from '../../src/config/unknown-variables.ts';

const dir = mkdtempSync(join(tmpdir(), 'unknown-variables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('unknown variables', () => {
  it('in .env: a slip of a known name is named, with the one probably meant', () => {
    expect(unknownVariableWarnings(['API_KEY_SECRT'], [])).toEqual([
      'config: API_KEY_SECRT (in .env) is not a variable of this project and is ignored; did you mean API_KEY_SECRET? (docs/configuration.md)',
    ]);
  });

  it('in .env: any name with our prefixes is named, with the closest known one', () => {
    const [line] = unknownVariableWarnings(['RELEASE_USERS'], []);
    expect(line).toMatch(
      /^config: RELEASE_USERS \(in \.env\) is not a variable of this project and is ignored; the closest known one is RELEASE_\w+ /,
    );
  });

  it('in .env: a swapped pair of letters outside our prefixes is still a slip', () => {
    expect(unknownVariableWarnings(['CLEINT_ID'], [])).toEqual([
      expect.stringContaining('did you mean CLIENT_ID?'),
    ]);
  });

  it('in the environment: only near misses of ours, not other programs variables', () => {
    expect(
      unknownVariableWarnings([], ['CONFORMANCE_STRICKT', 'API_TOKEN', 'RELEASE_NAME', 'PATH', 'K6_VUS']),
    ).toEqual([
      expect.stringMatching(
        /^config: CONFORMANCE_STRICKT \(in the environment\) .* did you mean CONFORMANCE_STRICT\?/,
      ),
    ]);
  });

  it('says nothing of known variables, nor of names that are no variable names', () => {
    expect(
      unknownVariableWarnings(
        ['API_KEY_SECRET', 'RATE_BUDGET', 'K6_PROJECT_DIR'],
        ['CONFORMANCE_TARGET', 'API_KEY SECRT'],
      ),
    ).toEqual([]);
  });

  it('reaches the user through loadSettings, without the value', () => {
    const path = join(dir, 'slip.env');
    writeFileSync(path, 'API_KEY_SECRT=oops-a-secret-value\nCONFORMANCE_REPORTS_DIRR=x\n');
    const result = loadSettings({}, { envFile: path });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      expect.stringContaining('API_KEY_SECRT (in .env)'),
      expect.stringContaining('did you mean CONFORMANCE_REPORTS_DIR?'),
    ]);
    expect(JSON.stringify(result)).not.toContain('oops-a-secret-value');
  });

  it('measures slips as people make them', () => {
    expect(editDistance('API_KEY_SECRT', 'API_KEY_SECRET')).toBe(1);
    expect(editDistance('CLEINT_ID', 'CLIENT_ID')).toBe(1);
    expect(closestKnown('petstore_base_url')).toEqual({ name: 'PETSTORE_BASE_URL', distance: 0 });
  });
});
