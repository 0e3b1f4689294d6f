// POST /v1/auth/token: tokens for the right credentials, refusals for the wrong ones.

import {
  ensure,
  expectJsonBody,
  expectRefusal,
  expectStatus,
  expectValid,
  is2xx,
} from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { expect } from '../src/checks/expect.ts';
import { acceptedNearMisses, nearMisses } from '../src/checks/near-miss.ts';
import type { ApiClient } from '../src/client/index.ts';
import { type TokenResponse, type Unchecked, validateResponse } from '../src/contract/index.ts';

/** `made`: the check wrote the credentials itself (no near miss of a secret): its command sends them. */
function requestToken(client: ApiClient, body: unknown, made = false) {
  return client.request({
    service: 'main',
    method: 'POST',
    path: 'v1/auth/token',
    auth: 'none',
    body,
    ...(made ? { madeUp: true } : {}),
  });
}

area('auth-token', () => {
  check(
    {
      id: 'TOK-ISSUE',
      title: 'the token route issues an access_token for valid credentials',
      rules: ['TOK-01'],
    },
    async (t) => {
      const { clientId, clientSecret } = t.config.credentials;
      const res = await requestToken(t.client, { client_id: clientId, client_secret: clientSecret });
      expectStatus(res, is2xx, 'POST /v1/auth/token with valid credentials');
      const body = expectJsonBody(res, 'the token response') as Unchecked<TokenResponse>;
      expectValid(validateResponse('createToken', res.status, body), 'the token response');
      expect(typeof body.access_token === 'string' && body.access_token.length > 0, 'access_token').toBe(
        true,
      );
    },
  );

  check(
    { id: 'TOK-USE', title: 'the issued token is accepted as a bearer token', rules: ['TOK-02'] },
    async (t) => {
      const { clientId, clientSecret } = t.config.credentials;
      const issued = await requestToken(t.client, { client_id: clientId, client_secret: clientSecret });
      const token = (issued.body as Unchecked<TokenResponse> | undefined)?.access_token;
      expect(typeof token, 'access_token of the token response').toBe('string');
      const res = await t.client.request({
        service: 'main',
        method: 'GET',
        path: 'v1/user/me',
        auth: { headers: { authorization: `Bearer ${token}` } },
        renew: false,
      });
      expectStatus(res, 200, 'GET /v1/user/me with the issued token');
    },
  );

  // Each body holds the configured values whole or values the check wrote (madeUp, as sent in
  // their commands); the near misses of the secret below are derived from it and stay hidden.
  const refusals: { id: string; title: string; body: (clientId: string, clientSecret: string) => unknown }[] =
    [
      {
        id: 'TOK-WRONG-SECRET',
        title: 'a wrong client_secret is refused',
        body: (clientId) => ({ client_id: clientId, client_secret: 'wrong-secret-for-conformance' }),
      },
      {
        id: 'TOK-UNKNOWN-CLIENT',
        title: 'an unknown client_id is refused',
        body: () => ({
          client_id: 'conformance-unknown-client',
          client_secret: 'conformance-unknown-secret',
        }),
      },
      {
        id: 'TOK-MISSING-SECRET',
        title: 'a request without client_secret is refused',
        body: (clientId) => ({ client_id: clientId }),
      },
      { id: 'TOK-EMPTY-BODY', title: 'an empty request body is refused', body: () => ({}) },
      {
        // The right values in another JSON type: a server that stringifies them would take them.
        id: 'TOK-WRONG-TYPES',
        title: 'the right client_id and client_secret, each in an array, are refused',
        body: (clientId, clientSecret) => ({ client_id: [clientId], client_secret: [clientSecret] }),
      },
    ];
  for (const refusal of refusals) {
    check(
      { id: refusal.id, title: `${refusal.title} with a 4xx and the error body`, rules: ['TOK-03'] },
      async (t) => {
        const res = await requestToken(
          t.client,
          refusal.body(t.config.credentials.clientId, t.config.credentials.clientSecret),
          true,
        );
        const body = expectRefusal(res, `POST /v1/auth/token: ${refusal.title}`) as Unchecked<TokenResponse>;
        expect(body.access_token, 'a refused token request must not carry an access_token').toBeUndefined();
      },
    );
  }

  check(
    {
      id: 'TOK-NEAR-MISS',
      title: 'near misses of the client secret are refused with a 4xx and the error body',
      rules: ['TOK-03'],
    },
    async (t) => {
      const { clientId, clientSecret } = t.config.credentials;
      const answers = await Promise.all(
        nearMisses(clientSecret).map(async (m) => {
          const res = await requestToken(t.client, { client_id: clientId, client_secret: m.value });
          return { what: m.what, status: res.status, res };
        }),
      );
      const accepted = acceptedNearMisses(answers);
      ensure(
        accepted === '',
        `POST /v1/auth/token accepted near misses of CLIENT_SECRET: ${accepted}`,
        answers.find((a) => a.status < 400 || a.status > 499)?.res,
      );
      for (const a of answers)
        expectRefusal(a.res, `POST /v1/auth/token with ${a.what} of the client secret`);
    },
  );
});
