import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialsFigure, readCredentialsPool } from '../../src/launcher/credentials-pool.ts';

const dir = mkdtempSync(join(tmpdir(), 'pool-'));
function file(text: string): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, text);
  return path;
}

describe('RELEASE_CREDENTIALS_FILE', () => {
  it('gives each runner its own client, in order; unset: none', () => {
    const path = file(
      JSON.stringify([
        { clientId: 'a', clientSecret: 's-a' },
        { client_id: 'b', client_secret: 's-b' },
      ]),
    );
    expect(readCredentialsPool({ RELEASE_CREDENTIALS_FILE: path }, 2)).toEqual([
      { clientId: 'a', clientSecret: 's-a' },
      { clientId: 'b', clientSecret: 's-b' },
    ]);
    expect(readCredentialsPool({}, 4)).toBeUndefined();
  });

  it('refuses, in one line and without the secret, a file that cannot give every runner its own', () => {
    const secret = 'never-printed-7f3a';
    const cases: [string, RegExp][] = [
      [`[{"clientId":"a","clientSecret":"${secret}"`, /is not JSON/],
      [`{"clientId":"a","clientSecret":"${secret}"}`, /expected a JSON array/],
      [`[{"clientId":"a"}]`, /entry 1 needs a clientId and a clientSecret/],
      [`[{"clientId":"a","clientSecret":"${secret}"}]`, /holds 1 credentials for 2 runners/],
      [
        `[{"clientId":"a","clientSecret":"${secret}"},{"clientId":"a","clientSecret":"x"}]`,
        /a client id appears twice/,
      ],
    ];
    for (const [text, reason] of cases) {
      let message = '';
      try {
        readCredentialsPool({ RELEASE_CREDENTIALS_FILE: file(text) }, 2);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(reason);
      expect(message).not.toContain(secret);
      expect(message.split('\n')).toHaveLength(1);
    }
    expect(() => readCredentialsPool({ RELEASE_CREDENTIALS_FILE: join(dir, 'missing.json') }, 1)).toThrow(
      /missing.json/,
    );
  });

  it('the report says whether the limiter saw each runner apart or their sum', () => {
    const pool = [
      { clientId: 'a', clientSecret: 'x' },
      { clientId: 'b', clientSecret: 'y' },
    ];
    expect(credentialsFigure(pool, 2, 'c')).toMatch(/runner-1: a, runner-2: b/);
    expect(credentialsFigure(pool, 2, 'c')).not.toMatch(/[xy]\b.*[xy]\b/);
    expect(credentialsFigure(undefined, 3, 'c')).toMatch(/all 3 runners used client c: .*sum/);
    expect(credentialsFigure(undefined, 1, 'c')).toBe('one runner, client c');
  });
});
