// An exchange as a curl command with every redacted value as a shell variable, never a secret,
// and quoted so a hostile URL or body cannot break out of its word.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlOf, variablesOf } from '../../src/client/curl.ts';
import type { RecordedExchange } from '../../src/client/index.ts';
import { apiKeyExchange } from '../support/exchange.ts';

const base: RecordedExchange = apiKeyExchange;

/** The words a POSIX shell makes of the command (printf shows each), with the variables set. */
function shellWords(command: string): string[] {
  const script = `set -- ${command.replace(/^curl /, '')}; for w in "$@"; do printf '%s\\n' "$w"; done`;
  const out = execFileSync('sh', ['-c', script], {
    env: { PATH: process.env.PATH, API_KEY_SECRET: 'S1', CLIENT_SECRET: 'S2', ACCESS_TOKEN: 'T3' },
  });
  return out.toString().trimEnd().split('\n');
}

describe('curlOf', () => {
  it('names the API key secret as a variable, drops transport headers', () => {
    const command = curlOf(base);
    expect(command).toBe(
      `curl -i 'http://127.0.0.1:4010/api/v1/customers?page=2' -H 'x-api-key-id: local-api-key' -H 'x-api-key-secret: '"$API_KEY_SECRET" -H 'accept: application/json'`,
    );
    expect(variablesOf(command)).toEqual(['API_KEY_SECRET']);
    expect(shellWords(command)).toContain('x-api-key-secret: S1');
  });

  it('a bearer token and a client secret in a body become $ACCESS_TOKEN and $CLIENT_SECRET', () => {
    const command = curlOf({
      ...base,
      method: 'POST',
      requestHeaders: { authorization: '[REDACTED]', 'content-type': 'application/json' },
      requestBody: `{"client_id":"it's-me","client_secret":"[REDACTED]"}`,
    });
    expect(command).not.toContain('[REDACTED]');
    expect(variablesOf(command).sort()).toEqual(['ACCESS_TOKEN', 'CLIENT_SECRET']);
    const words = shellWords(command);
    expect(words).toContain('authorization: Bearer T3');
    expect(words).toContain(`{"client_id":"it's-me","client_secret":"S2"}`);
    expect(words.slice(0, 2)).toEqual(['-i', '-X']);
  });

  it('a hostile URL stays one word: no command substitution', () => {
    const command = curlOf({ ...base, url: "http://x/$(touch /tmp/pwned)'`id`" });
    expect(shellWords(command)).toContain("http://x/$(touch /tmp/pwned)'`id`");
  });
});
