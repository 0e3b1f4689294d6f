// A body declared JSON, judged as the bytes it came as: each breach of RFC 8259 §8.1 (a byte that
// is no UTF-8, a byte order mark, a Content-Length that is not the bytes, text that is no JSON) and
// of §4 (a key twice with another value) is named; what a conformant server may do (a chunked
// answer, a key repeated with the same value, another content type, no body) is not judged. End to
// end, the transport keeps the byte facts the text hides, and the invariants judge them.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeInvariants } from '../../src/checks/invariants.ts';
import { jsonBytesProblem, jsonKeysProblem } from '../../src/checks/json-bytes.ts';
import { changedDuplicates, parseExactJson } from '../../src/client/exact-json.ts';
import { createApiClient, createRecorder, type RecordedExchange } from '../../src/client/index.ts';
import { firstNotUtf8, send } from '../../src/client/transport.ts';
import { loadSettings, resolveTarget } from '../../src/config/index.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';

const answer = (body: string, extra: Partial<RecordedExchange> = {}): RecordedExchange => ({
  method: 'GET',
  url: 'http://127.0.0.1:4010/petstore/v1/pets/abc',
  requestHeaders: {},
  status: 400,
  responseHeaders: {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  },
  responseBody: body,
  responseBytes: Buffer.byteLength(body),
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  ...extra,
});

describe('a body declared JSON, as bytes (GEN-02)', () => {
  it('holds for UTF-8 JSON of the length it says, non-ASCII and escapes included', () => {
    expect(jsonBytesProblem(answer('{"name":"Zoë \\ud800 🐾","id":9007199254740993}'))).toBe('');
  });

  it('names a byte that is no UTF-8, a byte order mark, a wrong length and text that is no JSON', () => {
    expect(jsonBytesProblem(answer('{"m":"Zo\uFFFD"}', { responseNotUtf8At: 8 }))).toMatch(
      /not UTF-8 \(byte 8/,
    );
    expect(jsonBytesProblem(answer('\uFEFF{"m":"x"}'))).toMatch(/byte order mark/);
    const short = answer('{"m":"x"}');
    expect(
      jsonBytesProblem({ ...short, responseHeaders: { ...short.responseHeaders, 'content-length': '10' } }),
    ).toBe('Content-Length 10, but 9 bytes came');
    expect(jsonBytesProblem(answer('{"m":'))).toBe('the body is not JSON');
  });

  it('leaves alone what a conformant server may send', () => {
    const chunked = answer('{"m":"x"}');
    chunked.responseHeaders = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    expect(jsonBytesProblem(chunked)).toBe('');
    // Another content type, no body, a HEAD, a 204, a compressed body: not governed.
    expect(jsonBytesProblem(answer('not json', { responseHeaders: { 'content-type': 'text/plain' } }))).toBe(
      undefined,
    );
    expect(jsonBytesProblem(answer('', { responseBytes: 0 }))).toBe(undefined);
    expect(jsonBytesProblem(answer('{"m":1}', { method: 'HEAD' }))).toBe(undefined);
    expect(jsonBytesProblem(answer('', { status: 204 }))).toBe(undefined);
    expect(
      jsonBytesProblem(
        answer('\u001f\uFFFD', {
          responseHeaders: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        }),
      ),
    ).toBe(undefined);
    // An answer the recorder cut is not parsed (its bytes are still judged).
    const cut = `{"m":"${'x'.repeat(10)}... [truncated, 70000 characters in all]`;
    expect(jsonBytesProblem(answer(cut, { responseBytes: Buffer.byteLength(cut) }))).toBe('');
  });
});

describe('a key twice with another value (GEN-03)', () => {
  it('is named with both values; the same value twice, or in another object, is not', () => {
    expect(jsonKeysProblem(answer('{"status_code":500,"code":"X","status_code":422}'))).toBe(
      'key "status_code" appears twice with different values: 500, then 422',
    );
    expect(jsonKeysProblem(answer('{"a":1,"a":1,"b":{"a":2}}'))).toBe('');
    expect(jsonKeysProblem(answer('[{"id":1},{"id":2}]'))).toBe('');
    expect(changedDuplicates('{"x":{"y":[1]},"x":{"y":[2]},"n":9007199254740993,"n":1}')).toEqual([
      { key: 'x', first: { y: [1] }, last: { y: [2] } },
      { key: 'n', first: 9007199254740993n, last: 1 },
    ]);
    // The exact reader still reads what JSON.parse reads, the last of two keys, integers exact.
    expect(parseExactJson('{"a":1,"a":9007199254740993}')).toEqual({ a: 9007199254740993n });
    expect(changedDuplicates('not json')).toEqual([]);
    // Answers with every key once are told apart without the exact reader (counting key ends):
    // a string holding '":' or a key ending in whitespace before its colon does not hide a duplicate.
    expect(changedDuplicates('{"m":"a\\":b","k" :1,"n":{"k":2}}')).toEqual([]);
    expect(changedDuplicates('{"m":"x\\":y","k"\n:1,"k" : 2}')).toEqual([{ key: 'k', first: 1, last: 2 }]);
    expect(changedDuplicates('{"m":"q\\":r","a":{"b":1,"b":3}}')).toEqual([{ key: 'b', first: 1, last: 3 }]);
    expect(changedDuplicates('{"__proto__":1,"__proto__":2}')).toEqual([
      { key: '__proto__', first: 1, last: 2 },
    ]);
  });
});

describe('the first byte that is no UTF-8', () => {
  it('is found where a strict decoder stops, and not in UTF-8', () => {
    const at = (...bytes: number[]) => firstNotUtf8(Uint8Array.from(bytes));
    expect(firstNotUtf8(Buffer.from('{"n":"Zoë 🐾 名前"}'))).toBe(undefined);
    expect(at(0x7b, 0xff)).toBe(1);
    expect(at(0x41, 0xc3, 0x28)).toBe(1); // a lead byte without its continuation
    expect(at(0xc0, 0xaf)).toBe(0); // overlong
    expect(at(0xed, 0xa0, 0x80)).toBe(0); // an encoded surrogate
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0); // beyond U+10FFFF
    expect(at(0x41, 0xe2, 0x82)).toBe(1); // cut short
  });
});

describe('end to end: the transport keeps what the text hides, the invariants judge it', () => {
  let server: Server;
  let origin = '';
  const bodies: Record<string, { type: string; body: Buffer; length?: number }> = {
    '/latin1': { type: 'application/json; charset=utf-8', body: Buffer.from('{"m":"Zoé"}', 'latin1') },
    '/bom': { type: 'application/json', body: Buffer.from('\uFEFF{"m":"x"}', 'utf8') },
    '/twice': { type: 'application/problem+json', body: Buffer.from('{"s":500,"s":422}') },
    '/fine': { type: 'application/json', body: Buffer.from('{"m":"Zoë"}') },
    '/chunked': { type: 'application/json', body: Buffer.from('{"m":"chunked"}'), length: -1 },
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const found = bodies[req.url ?? ''] ?? { type: 'text/plain', body: Buffer.from('?') };
      const headers: Record<string, string | number> = { 'content-type': found.type };
      if (found.length === undefined) headers['content-length'] = found.body.length;
      res.writeHead(400, headers);
      res.end(found.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a Latin-1 byte reads as U+FFFD, and the exchange keeps where it stood', async () => {
    const recorder = createRecorder([]);
    const options = { timeoutMs: 10_000, maxBodyBytes: 1 << 20, allowedOrigins: [origin] };
    for (const path of Object.keys(bodies)) {
      const res = await send({ method: 'GET', url: new URL(`${origin}${path}`), headers: {} }, options);
      recorder.record({
        method: 'GET',
        url: res.url,
        requestHeaders: {},
        status: res.status,
        responseHeaders: res.headers,
        responseBody: res.text,
        ...(res.bytes === undefined ? {} : { responseBytes: res.bytes }),
        ...(res.notUtf8At === undefined ? {} : { responseNotUtf8At: res.notUtf8At }),
        startedAt: new Date().toISOString(),
        durationMs: res.durationMs,
      });
    }
    const [latin1] = recorder.exchanges();
    expect(latin1?.responseBody).toBe('{"m":"Zo\uFFFD"}');
    expect(latin1?.responseNotUtf8At).toBe(8);
    expect(latin1?.responseBytes).toBe(11);
    const verdicts = judgeInvariants(
      recorder.exchanges().map((exchange) => ({ checkId: 'CHK-1', exchange })),
      { apiBaseUrl: `${origin}/api/`, petstoreBaseUrl: `${origin}/` },
    );
    const bytes = verdicts.find((v) => v.id === 'INV-JSON-BYTES');
    expect(bytes?.status).toBe('failed');
    expect(bytes?.judged).toBe(5);
    expect(bytes?.breaches.map((b) => `${new URL(b.exchange.url).pathname}: ${b.problem}`)).toEqual([
      '/latin1: the body is not UTF-8 (byte 8 starts no UTF-8 sequence)',
      '/bom: the body starts with a byte order mark (EF BB BF)',
    ]);
    const keys = verdicts.find((v) => v.id === 'INV-JSON-KEYS');
    expect(keys?.level).toBe('ADVICE');
    expect(keys?.reason).toMatch(/^key "s" appears twice with different values: 500, then 422: GET \/twice/);
  });
});

describe('the reference server faults of JSON bytes', () => {
  const servers: RunningReferenceServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it.each([
    ['pet-error-bom', 'INV-JSON-BYTES', /byte order mark \(EF BB BF\): GET \/petstore\/v1\/pets\/abc -> 400/],
    ['error-latin1', 'INV-JSON-BYTES', /not UTF-8 .*GET \/petstore\/v1\/pets\/Zo%C3%A9 -> 400/],
    ['error-duplicate-status-code', 'INV-JSON-KEYS', /key "status_code" .*500, then 401/],
  ])('%s fails %s, and only it: without it the fault passes', async (fault, id, reason) => {
    const loaded = loadSettings({ CONFORMANCE_TARGET: 'local' }, { envFile: false });
    if (!loaded.ok) throw new Error('local settings');
    const server = await startReferenceServer({ faults: [fault] });
    servers.push(server);
    const config = resolveTarget(loaded.settings, server);
    const recorder = createRecorder([]);
    const client = createApiClient(config, { recorder });
    await client.request({ service: 'petstore', method: 'GET', path: 'pets/abc', auth: 'none' });
    await client.request({ service: 'petstore', method: 'GET', path: 'pets/Zo%C3%A9', auth: 'none' });
    await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'none' });
    await client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'apiKey' });
    const verdicts = judgeInvariants(
      recorder.exchanges().map((exchange) => ({ checkId: 'CHK-1', exchange })),
      config,
    );
    const caught = verdicts.find((v) => v.id === id);
    expect(caught?.status).toBe('failed');
    expect(caught?.reason).toMatch(reason);
    expect(verdicts.filter((v) => v.status === 'failed' && v.id !== id).map((v) => v.id)).toEqual([]);
  });
});
