// One spelling per host for both halves: Node's URL parser reads 127.1 as 127.0.0.1 and Go's does
// not, so the configuration writes it once; the production guard compares hosts in that spelling.
import { describe, expect, it } from 'vitest';
import { readHttpUrl } from '../../common/config-rules.ts';
import { normalizeHost } from '../../common/host.ts';

describe('normalizeHost', () => {
  it.each([
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7F000001', '127.0.0.1'],
    ['API.Example.COM.', 'api.example.com'],
    ['[::ffff:127.0.0.1]', '127.0.0.1'],
    ['[::FFFF:7f00:1]', '127.0.0.1'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
    ['[2001:DB8:0:0:1:0:0:1]', '[2001:db8::1:0:0:1]'],
    ['staging.example.com', 'staging.example.com'],
    ['a.b.1x', 'a.b.1x'],
  ])('%s is %s, as a WHATWG parser reads it', (raw, host) => {
    expect(normalizeHost(raw)).toEqual({ ok: true, host });
    // Node's own reading agrees wherever it reads the host as IPv4.
    if (!raw.startsWith('[')) expect(new URL(`http://${raw}/`).hostname.replace(/\.$/, '')).toBe(host);
  });

  it.each(['256.1', '1.2.3.4.5', '4294967296', '1.2.3.256', 'a..b', '[::1', '[1:2:3:4:5:6:7:8:9]', '[::g]'])(
    '%s cannot be normalised: refused, never guessed',
    (raw) => {
      expect(normalizeHost(raw).ok).toBe(false);
    },
  );

  it('is linear on a long host', () => {
    const started = performance.now();
    normalizeHost(`${'a.'.repeat(2_000_000)}1`);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('readHttpUrl writes the host in its one spelling', () => {
  it('127.1 is http://127.0.0.1 for both halves, and a non-address number is a configuration error', () => {
    expect(readHttpUrl('http://127.1:8080/api/')).toEqual({ ok: true, value: 'http://127.0.0.1:8080/api/' });
    expect(readHttpUrl('https://API.example.com./api/')).toEqual({
      ok: true,
      value: 'https://api.example.com/api/',
    });
    const refused = readHttpUrl('http://256.1/api/');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problem.kind).toBe('host');
  });
});
