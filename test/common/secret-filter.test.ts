// The one secret filter (common/secret-filter.ts): what it removes, and a scan that keeps
// it the only redaction in src/ and load/ (the client's recorder, the reports, the
// configuration messages and the k6 summaries all use it).
import { describe, expect, it } from 'vitest';
import { createSecretFilter, REDACTED, secretForms } from '../../common/secret-filter.ts';
import { filesMatching } from '../support/sources.ts';

const filesWith = (pattern: RegExp) => filesMatching(pattern, ['src', 'load'], 'common/secret-filter.ts');

describe('createSecretFilter', () => {
  it('removes a secret in every form a record or report writes it, longest first', () => {
    const f = createSecretFilter(['a b"c<d>&\'e', 'short-x', 'short-x-and-longer']);
    for (const form of secretForms('a b"c<d>&\'e')) expect(f.text(`[${form}]`)).toBe(`[${REDACTED}]`);
    expect(secretForms('a b"c<d>&\'e')).toContain('a b&quot;c&lt;d&gt;&amp;&apos;e');
    expect(f.text('short-x-and-longer')).toBe(REDACTED);
  });

  it('removes token and secret fields whatever their value, and credential headers by name', () => {
    const f = createSecretFilter([]);
    expect(f.text('{"access_token" : "a\\"b"} ?client_secret=z&x=1')).toBe(
      `{"access_token" : "${REDACTED}"} ?client_secret=${REDACTED}&x=1`,
    );
    expect(f.headers({ Authorization: 'Bearer t', 'x-api-key-secret': 'k', accept: 'a' })).toEqual({
      Authorization: REDACTED,
      'x-api-key-secret': REDACTED,
      accept: 'a',
    });
  });

  it('redacts every field name in any letter case, amid any text (the quick pre-check skips none)', () => {
    const f = createSecretFilter([]);
    const names = [
      'access_token',
      'refresh_token',
      'id_token',
      'client_secret',
      'api_key_secret',
      'password',
      'authorization',
      'proxy-authorization',
      'x-api-key-secret',
    ];
    // Letter cases alternate per name; non-ASCII neighbours (one lowercases to two units) around it.
    names.forEach((name, i) => {
      const cased = [...name].map((c, j) => ((i + j) % 2 ? c.toUpperCase() : c)).join('');
      expect(f.text(`İ/// {"${cased}":"v1"} ?${cased}=v2 ſ`)).toBe(
        `İ/// {"${cased}":"${REDACTED}"} ?${cased}=${REDACTED} ſ`,
      );
      // Each pattern alone: a JSON field with blanks around its colon, a form field alone.
      expect(f.text(`{"${cased}" :\t"v3"}`)).toBe(`{"${cased}" :\t"${REDACTED}"}`);
      expect(f.text(`a&${cased}=v4`)).toBe(`a&${cased}=${REDACTED}`);
    });
    // Text with no field name is returned as it came (60,000 slashes: the error path of issue 30).
    const slashes = `{"path":"${'/'.repeat(60_000)}x","token":1,"message":"access_token missing"}`;
    expect(f.text(slashes)).toBe(slashes);
  });

  it('leaves a printed command whole: its shell variables and token fetch hold no secret', () => {
    // reproductionOf's lines: a bearer request fetches its token first; a form body splices the secret.
    const f = createSecretFilter(['configured-secret-1']);
    const commands = [
      `ACCESS_TOKEN=$(curl -s 'http://h/api/v1/auth/token' -H 'content-type: application/json' --data-raw '{"client_id":"'"$CLIENT_ID"'","client_secret":"'"$CLIENT_SECRET"'"}' | sed -n 's/x/p') && curl -i 'http://h/api/v1/user/me' -H "Authorization: Bearer $ACCESS_TOKEN"`,
      `curl -i 'http://h/api/v1/auth/token' --data-raw 'grant_type=client_credentials&client_secret='"$CLIENT_SECRET"`,
    ];
    for (const command of commands) expect(f.text(command)).toBe(command);
    // A value beside them is still redacted by its field's name.
    expect(f.text(`${commands[1]} {"client_secret":"x'y"} client_secret=$`)).toBe(
      `${commands[1]} {"client_secret":"${REDACTED}"} client_secret=${REDACTED}`,
    );
  });

  it('filters deep objects, keys included; learns secrets later and from credential headers', () => {
    const f = createSecretFilter(['top-secret-1']);
    expect(f.deep({ 'k-top-secret-1': ['top-secret-1', 3, null] })).toEqual({
      [`k-${REDACTED}`]: [REDACTED, 3, null],
    });
    f.add('late-token-2');
    f.learnFromHeaders({ authorization: 'Bearer hand-made-token' });
    expect(f.text('late-token-2 hand-made-token')).toBe(`${REDACTED} ${REDACTED}`);
  });

  it('takes no learned value shorter than 8 characters as a secret pattern', () => {
    // A target that issues the token `json` must not blank every `json` of the evidence.
    const f = createSecretFilter(['cfg']);
    f.add('json');
    f.add('1234567');
    f.learnFromHeaders({ authorization: 'Bearer abc', 'x-api-key-secret': 'short' });
    expect(f.text('application/json 1234567 abc short')).toBe('application/json 1234567 abc short');
    f.add('12345678');
    expect(f.text('x12345678x')).toBe(`x${REDACTED}x`);
    // A configured secret is the user's: redacted whatever its length.
    expect(f.text('a cfg b')).toBe(`a ${REDACTED} b`);
  });

  it('redacts structured values so that their serialization stays valid JSON', () => {
    // A text pass over serialized JSON ate the backslash of password=x\"y (results.json invalid).
    const f = createSecretFilter([]);
    const value = f.deep({ body: 'password=x"y&next=1' });
    expect(JSON.parse(JSON.stringify(value))).toEqual({ body: `password=${REDACTED}"y&next=1` });
  });

  it('takes a secret that cannot be URL-encoded (a lone surrogate) without throwing', () => {
    expect(createSecretFilter(['\ud800x']).text('a\ud800xb')).toBe(`a${REDACTED}b`);
  });
});

describe('one secret filter', () => {
  it('has no second copy in src/ or load/', () => {
    // A hand-written replacement of secret values, or a second table of their forms.
    expect(filesWith(/\.join\(\s*(?:REDACTED|['"`]\[REDACTED\]['"`])\s*\)/)).toEqual([]);
    expect(filesWith(/encodeURIComponent\(\s*secret\s*\)/)).toEqual([]);
    // The four copies this filter replaced, by name.
    expect(filesWith(/\b(?:createRedactor|createScrubber|redactSecrets)\b/)).toEqual([]);
  });
});
