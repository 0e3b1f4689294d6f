// Reading the variables: the .env file (dotenv syntax) under the real environment, which wins as
// with dotenv itself; no file is the normal case; process.env is never written.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVariables } from '../../src/config/env-file.ts';
import { loadSettings } from '../../src/config/index.ts';
import { SECRETS, STAGING } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'config-env-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function envFile(text: string | Buffer): string {
  const path = join(dir, `test-${++files}.env`);
  writeFileSync(path, text);
  return path;
}

function lines(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

describe('the .env file', () => {
  it('gives a complete configuration on its own', () => {
    const result = loadSettings({}, { envFile: envFile(lines(STAGING)) });
    expect(result).toMatchObject({
      ok: true,
      settings: { target: 'staging', clientSecret: SECRETS.CLIENT_SECRET },
    });
  });

  it('is read with dotenv syntax: comments, quotes, export, CRLF, a byte-order mark, multi-line values', () => {
    const path = envFile(
      Buffer.from(
        '\uFEFF# a comment\r\n' +
          'CONFORMANCE_TARGET=staging # trailing comment\r\n' +
          'export API_BASE_URL="https://staging.example.com/api/"\r\n' +
          "PETSTORE_BASE_URL='https://petstore.example.com/v1'\r\n" +
          'CLIENT_ID = spaced-id\r\n' +
          'CLIENT_SECRET="with # hash and spaces"\r\n' +
          'API_KEY_ID=`backticks`\r\n' +
          'API_KEY_SECRET="two\nlines"\r\n' +
          'not a variable line\r\n',
      ),
    );
    expect(readVariables({}, path)).toEqual({
      values: {
        CONFORMANCE_TARGET: 'staging',
        API_BASE_URL: 'https://staging.example.com/api/',
        PETSTORE_BASE_URL: 'https://petstore.example.com/v1',
        CLIENT_ID: 'spaced-id',
        CLIENT_SECRET: 'with # hash and spaces',
        API_KEY_ID: 'backticks',
        API_KEY_SECRET: 'two\nlines',
      },
      problems: [],
      warnings: [],
    });
  });

  it('is optional: a missing file is no problem', () => {
    expect(readVariables({ A: '1' }, join(dir, 'no-such.env'))).toEqual({
      values: { A: '1' },
      problems: [],
      warnings: [],
    });
  });

  it('is not read at all with envFile false', () => {
    const path = envFile('CONFORMANCE_TARGET=staging');
    expect(readVariables({}, false).values).toEqual({});
    expect(readVariables({}, path).values).toEqual({ CONFORMANCE_TARGET: 'staging' });
  });

  it('that cannot be read is a problem naming it, listed with the others', () => {
    const unreadable = join(dir, 'a-directory.env');
    mkdirSync(unreadable);
    const result = loadSettings({ REQUEST_TIMEOUT_MS: 'soon' }, { envFile: unreadable });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          variable: unreadable,
          problem: 'the .env file cannot be read (EISDIR)',
          expected: 'a readable file of NAME=value lines, or no file at all',
        },
        expect.objectContaining({ variable: 'REQUEST_TIMEOUT_MS' }),
      ],
    });
  });
});

describe('the real environment', () => {
  it('wins over the file, variable by variable', () => {
    const path = envFile(lines({ ...STAGING, REQUEST_TIMEOUT_MS: '1234', CLIENT_ID: 'from-file' }));
    const result = loadSettings(
      { CLIENT_ID: 'from-environment', CONFORMANCE_STRICT: '1' },
      { envFile: path },
    );
    expect(result).toMatchObject({
      ok: true,
      settings: { clientId: 'from-environment', strict: true, requestTimeoutMs: 1234, target: 'staging' },
    });
  });

  it('wins even when empty, as with dotenv: an empty variable unsets the file value', () => {
    const path = envFile(lines(STAGING));
    const result = loadSettings({ API_BASE_URL: '' }, { envFile: path });
    expect(result).toEqual({
      ok: false,
      problems: [
        expect.objectContaining({ variable: 'API_BASE_URL', problem: expect.stringMatching(/^is not set/) }),
      ],
    });
  });

  it('can fix a bad file value, and a bad environment value is reported over a good file value', () => {
    const path = envFile(lines({ ...STAGING, REQUEST_TIMEOUT_MS: 'soon' }));
    expect(loadSettings({ REQUEST_TIMEOUT_MS: '2000' }, { envFile: path }).ok).toBe(true);
    const good = envFile(lines(STAGING));
    expect(loadSettings({ CONFORMANCE_TARGET: 'prod' }, { envFile: good })).toMatchObject({
      ok: false,
      problems: [{ variable: 'CONFORMANCE_TARGET', problem: 'is "prod"' }],
    });
  });

  it('is never written: loading leaves process.env as it was', () => {
    const before = { ...process.env };
    const path = envFile(lines({ ...STAGING, CONFIG_TEST_ONLY_VARIABLE: 'x' }));
    loadSettings(process.env, { envFile: path });
    expect(process.env).toEqual(before);
    expect(process.env.CONFIG_TEST_ONLY_VARIABLE).toBeUndefined();
  });

  it('is read as given, not copied into the file values it overlays', () => {
    const env = { CONFORMANCE_TARGET: 'local' };
    const { values } = readVariables(env, envFile('CONFORMANCE_TARGET=staging\nCLIENT_ID=x'));
    expect(values).toEqual({ CONFORMANCE_TARGET: 'local', CLIENT_ID: 'x' });
    expect(env).toEqual({ CONFORMANCE_TARGET: 'local' });
  });
});
