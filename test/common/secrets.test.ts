// One secret list: the secret rows of the table of variables (common/variables.ts), read
// by key on both sides of the k6 boundary. A secret row added to the table but not filtered by the
// suite or by the scripts fails here; so does a second hand-written list on either side.
import { describe, expect, it } from 'vitest';
import { createSecretFilter, REDACTED } from '../../common/secret-filter.ts';
import { VARIABLES } from '../../common/variables.ts';
import { readLoadConfig, secretValues as scriptSecrets } from '../../load/lib/config.ts';
import { resolveTarget, secretValues, targetValues } from '../../src/config/index.ts';
import { handOver } from '../../src/launcher/k6-env.ts';
import { STAGING, settingsOf } from '../config/helpers.ts';
import { filesMatching } from '../support/sources.ts';

const SECRET_ROWS = VARIABLES.filter((v) => v.secret);
/** Every secret row set to a value of its own (recognisable, long enough for the validator). */
const VALUES = Object.fromEntries(SECRET_ROWS.map((v) => [v.name, `${v.name.toLowerCase()}-value-7f3e`]));
const settings = settingsOf({ ...STAGING, ...VALUES });
const config = resolveTarget(settings);
const handed = handOver(config, { reportDir: 'reports', petstore: true, control: true });
const loadConfig = readLoadConfig({ LOAD_TARGET: handed });

const redacts = (secrets: string[], value: string) =>
  createSecretFilter(secrets).text(`before ${value} after`) === `before ${REDACTED} after`;

describe('the secret rows of the table', () => {
  it('are there, and each has a settings key', () => {
    expect(SECRET_ROWS.map((v) => v.name)).toContain('CLIENT_SECRET');
    for (const row of SECRET_ROWS) expect(row.key, row.name).toBeDefined();
  });

  it.each(SECRET_ROWS.map((v) => [v.name, v.k6]))(
    '%s is filtered by the suite, and by the k6 scripts when they get it (k6: %s)',
    (name) => {
      const value = VALUES[name] as string;
      const row = SECRET_ROWS.find((v) => v.name === name);
      // The suite: from the settings and from the resolved target alike.
      expect(secretValues(settings), 'settings').toContain(value);
      expect(secretValues(config), 'resolved target').toContain(value);
      expect(redacts(secretValues(config), value)).toBe(true);
      if (row?.k6) {
        // The scripts get it through the hand-over and filter their summaries with it.
        expect(scriptSecrets(loadConfig)).toContain(value);
        expect(redacts(scriptSecrets(loadConfig), value)).toBe(true);
      } else {
        // A secret the scripts do not need never reaches k6.
        expect(handed).not.toContain(value);
      }
    },
  );

  it('are all the secrets either side gives: nothing else, nothing twice', () => {
    expect(secretValues(config).sort()).toEqual(Object.values(VALUES).sort());
    const k6Values = SECRET_ROWS.filter((v) => v.k6).map((v) => VALUES[v.name]);
    expect(scriptSecrets(loadConfig).sort()).toEqual(k6Values.sort());
  });

  it('reads a resolved target under the settings keys, every key of the table', () => {
    const values = targetValues(config);
    for (const row of VARIABLES) {
      if (row.key === undefined) continue;
      expect(values[row.key], row.name).toEqual((settings as unknown as Record<string, unknown>)[row.key]);
    }
  });

  it('is the only list: no secretValues lists fields of its own', () => {
    // A list of secret fields written out ([x.clientSecret, x.apiKeySecret, ...]) is a second copy.
    const handList = /\[[^\]]*\.clientSecret,[^\]]*\.apiKeySecret\b[^\]]*\]/;
    expect(filesMatching(handList, ['src', 'load'], 'common/variables.ts')).toEqual([]);
    expect(handList.test('[config.clientSecret, config.apiKeySecret].filter(Boolean)')).toBe(true);
  });
});
