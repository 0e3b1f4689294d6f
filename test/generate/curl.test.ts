// The curl line of a failure: pasteable, with every secret as a shell variable, never its value.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { TargetConfig } from '../../src/config/index.ts';
import { curlCommand, hideSecrets } from '../../src/generate/curl.ts';

const config = {
  target: 'staging',
  apiBaseUrl: 'https://api.example.test/api/',
  petstoreBaseUrl: 'https://pets.example.test/v1',
  credentials: {
    clientId: 'client-one',
    clientSecret: 'client-secret-value-1234',
    apiKeyId: 'key-one',
    apiKeySecret: "api-key-secret-with-'quote",
  },
  allowProductionWrites: false,
  requestTimeoutMs: 1000,
  strict: false,
  slow: false,
} as TargetConfig;

/** What a POSIX shell makes of the command's words, with the variables set. */
function words(command: string): string[] {
  const script = `set -- ${command.replace(/^curl /, '')}; for a in "$@"; do printf '%s\\n' "$a"; done`;
  return execFileSync('sh', ['-c', script], {
    env: { CLIENT_SECRET: 'S1', API_KEY_SECRET: 'S2', ACCESS_TOKEN: 'S3', PATH: process.env.PATH },
  })
    .toString()
    .trimEnd()
    .split('\n');
}

describe('curlCommand', () => {
  it('writes the client secret in a body as $CLIENT_SECRET, and the shell puts it back', () => {
    const body = { client_id: ['client-one'], client_secret: 'client-secret-value-1234' };
    const line = curlCommand(
      { service: 'main', method: 'POST', path: 'v1/auth/token', auth: 'none', body },
      config,
    );
    expect(line).not.toContain('client-secret-value-1234');
    expect(line).toContain('"$CLIENT_SECRET"');
    expect(words(line)).toEqual([
      '-i',
      '-X',
      'POST',
      'https://api.example.test/api/v1/auth/token',
      '-H',
      'content-type: application/json',
      '--data-raw',
      '{"client_id":["client-one"],"client_secret":"S1"}',
    ]);
  });

  it('sends API key and bearer credentials as variables, and keeps raw bodies byte for byte', () => {
    const key = curlCommand(
      { service: 'main', method: 'GET', path: 'v1/customers', query: { page: 'a b' }, auth: 'apiKey' },
      config,
    );
    expect(key).not.toContain("api-key-secret-with-'quote");
    expect(words(key)).toContain('x-api-key-secret: S2');
    expect(words(key)).toContain('https://api.example.test/api/v1/customers?page=a+b');
    const bearer = curlCommand(
      { service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' },
      config,
    );
    expect(words(bearer)).toContain('authorization: Bearer S3');
    const raw = curlCommand(
      {
        service: 'petstore',
        method: 'POST',
        path: 'pets',
        auth: 'none',
        rawBody: `{"name":"O'Neil"`,
        contentType: 'text/plain',
      },
      config,
    );
    expect(words(raw).slice(-4)).toEqual([
      '-H',
      'content-type: text/plain',
      '--data-raw',
      `{"name":"O'Neil"`,
    ]);
    expect(words(raw)).toContain('https://pets.example.test/v1/pets');
  });

  it('an empty body is still sent', () => {
    const line = curlCommand(
      {
        service: 'petstore',
        method: 'POST',
        path: 'pets',
        auth: 'none',
        rawBody: '',
        contentType: 'application/json',
      },
      config,
    );
    expect(line.endsWith("--data-raw ''")).toBe(true);
  });

  it('hideSecrets writes every secret of a report line as its variable', () => {
    expect(hideSecrets('{"client_secret":"client-secret-value-1234"}', config)).toBe(
      '{"client_secret":"$CLIENT_SECRET"}',
    );
  });
});
