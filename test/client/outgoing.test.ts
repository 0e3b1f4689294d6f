// The one request description: an ApiRequest becomes the outgoing request (method, URL, headers
// with accept and credentials, body text) in a pure function; renewal, 429 retries and recording
// wrap one send in undici's interceptor shape, in that order.
import { describe, expect, it } from 'vitest';
import { buildOutgoing, compose, type Interceptor, type Send } from '../../src/client/index.ts';
import { bearer, bearerToken } from '../../src/client/outgoing.ts';

const target = {
  apiBaseUrl: 'http://127.0.0.1:4010/api',
  petstoreBaseUrl: 'http://127.0.0.1:4010/petstore/v1/',
  credentials: { apiKeyId: 'key-id', apiKeySecret: 'key-secret' },
};

describe('buildOutgoing', () => {
  it('API key: both headers, accept, the query on the service base (with or without its slash)', () => {
    const out = buildOutgoing(
      {
        service: 'main',
        method: 'GET',
        path: '/v1/customers',
        query: { page: 2, x: undefined },
        auth: 'apiKey',
      },
      target,
    );
    expect(out).toEqual({
      method: 'GET',
      url: new URL('http://127.0.0.1:4010/api/v1/customers?page=2'),
      headers: { accept: 'application/json', 'x-api-key-id': 'key-id', 'x-api-key-secret': 'key-secret' },
    });
  });

  it('bearer: the token it is given; JSON bodies as text with their content type', () => {
    const out = buildOutgoing(
      { service: 'petstore', method: 'POST', path: 'pets', auth: 'bearer', body: { id: 1, name: 'Kit' } },
      target,
      'tok',
    );
    expect(out.url.href).toBe('http://127.0.0.1:4010/petstore/v1/pets');
    expect(out.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer tok',
    });
    expect(out.body).toBe('{"id":1,"name":"Kit"}');
  });

  it('hand-made credentials and extra headers (lower-cased, last wins); a raw body as it is', () => {
    const out = buildOutgoing(
      {
        service: 'main',
        method: 'PUT',
        path: 'v1/x',
        auth: { headers: { Authorization: 'bearer lower' } },
        headers: { 'X-Trace': 't', Accept: 'text/plain' },
        rawBody: 'a=b',
      },
      target,
    );
    expect(out.headers).toEqual({ accept: 'text/plain', authorization: 'bearer lower', 'x-trace': 't' });
    expect(out.body).toBe('a=b');
    expect(out.headers['content-type']).toBeUndefined();
  });

  it('is pure: the same request gives the same outgoing request', () => {
    const req = { service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' } as const;
    expect(buildOutgoing(req, target, 't')).toEqual(buildOutgoing(req, target, 't'));
    expect(bearerToken(bearer('abc'))).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
  });
});

describe('compose', () => {
  it('the first interceptor sees the request first and the answer last', async () => {
    const seen: string[] = [];
    const tag =
      (name: string): Interceptor =>
      (next) =>
      async (out, options) => {
        seen.push(`${name} in`);
        const res = await next(out, options);
        seen.push(`${name} out`);
        return res;
      };
    const send: Send = async (out) => {
      seen.push(`send ${out.method}`);
      return {
        status: 200,
        headers: {},
        text: '',
        body: undefined,
        isJson: false,
        url: out.url.href,
        durationMs: 0,
      };
    };
    const out = buildOutgoing({ service: 'main', method: 'GET', path: 'x', auth: 'none' }, target);
    await compose(
      send,
      tag('renewal'),
      tag('retries'),
      tag('recording'),
    )(out, { retryOn429: true, renew: false });
    expect(seen).toEqual([
      'renewal in',
      'retries in',
      'recording in',
      'send GET',
      'recording out',
      'retries out',
      'renewal out',
    ]);
  });
});
