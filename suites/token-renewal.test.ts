// SESSION_EXPIRED and renewal: an expired token gets SESSION_EXPIRED (by code, whatever the
// status); a token from the token route then works, and one renewal serves every waiting request.
// The expired token comes from EXPIRED_ACCESS_TOKEN, the reference server's control API, or, when
// slow checks are on, from waiting out a short expires_in.

import { errorCode, expectErrorBody, expectStatus } from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { expect } from '../src/checks/expect.ts';
import { requestFor } from '../src/checks/operation-requests.ts';
import { sharedCustomersBearer, skipUnlessBearerTaken } from '../src/checks/route-schemes.ts';
import { available, shared, Unavailable } from '../src/checks/shared.ts';
import type { ApiRequest } from '../src/client/index.ts';
import { operations, type TokenResponse } from '../src/contract/index.ts';

// Waiting out a token lifetime is worth it only when the lifetime is short.
const LONGEST_REAL_WAIT_SECONDS = 120;
const CONCURRENT_REQUESTS = 10;
const ME: ApiRequest = { service: 'main', method: 'GET', path: 'v1/user/me', auth: 'bearer' };
// Every route that takes a bearer token owes SESSION_EXPIRED and renewal, not only /v1/user/me.
const bearerOperations = operations().filter((op) => op.security.includes('bearer'));
// Whether GET /v1/customers takes a bearer token, learned once for the file's two checks of it.
const bearerUse = sharedCustomersBearer();

const expired = shared(async (client, config, control) => {
  if (config.expiredAccessToken) return { token: config.expiredAccessToken };
  const issued = await client.request({
    service: 'main',
    method: 'POST',
    path: 'v1/auth/token',
    auth: 'none',
    body: { client_id: config.credentials.clientId, client_secret: config.credentials.clientSecret },
  });
  expectStatus(issued, 200, 'POST /v1/auth/token');
  // expires_in is not in the document's TokenResponse: read, never relied on.
  const { access_token: token, expires_in: lifetime } = issued.body as TokenResponse & {
    expires_in?: unknown;
  };
  if (control) {
    await control.expireSessions(token);
    return { token };
  }
  if (!config.slow) {
    return new Unavailable(
      'no EXPIRED_ACCESS_TOKEN, no control API, and slow checks are off (CONFORMANCE_SLOW=0)',
    );
  }
  if (typeof lifetime !== 'number' || lifetime > LONGEST_REAL_WAIT_SECONDS) {
    return new Unavailable(
      `no EXPIRED_ACCESS_TOKEN and no control API; the token lifetime (${String(lifetime)} s) is too long to wait out`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, (lifetime + 1) * 1000));
  return { token };
});

area('token-renewal', () => {
  check(
    {
      id: 'REN-EXPIRED-CODE',
      title: 'an expired token gets SESSION_EXPIRED',
      rules: ['REN-01'],
      timeoutMs: (LONGEST_REAL_WAIT_SECONDS + 30) * 1000,
    },
    async (t) => {
      const result = available(t, await expired(t));
      const res = await t.client.request({
        ...ME,
        auth: { headers: { authorization: `Bearer ${result.token}` } },
        renew: false,
      });
      expectErrorBody(res, 'GET /v1/user/me with an expired token');
      expect(errorCode(res), `code of the answer to an expired token (HTTP ${res.status})`).toBe(
        'SESSION_EXPIRED',
      );
    },
  );

  check(
    {
      id: 'REN-RENEW',
      title: 'after SESSION_EXPIRED a new token is accepted and the repeated request succeeds',
      rules: ['REN-02'],
      timeoutMs: (LONGEST_REAL_WAIT_SECONDS + 30) * 1000,
    },
    async (t) => {
      const result = available(t, await expired(t));
      t.client.tokens.useToken(result.token);
      const res = await t.client.request(ME);
      expectStatus(res, 200, 'GET /v1/user/me, renewed once after SESSION_EXPIRED');
      expect(t.client.tokens.tokenRequests, 'token requests for one renewal').toBe(1);
    },
  );

  check(
    {
      id: 'REN-SHARED',
      title: `one renewal serves ${CONCURRENT_REQUESTS} requests that met SESSION_EXPIRED together`,
      rules: ['REN-03'],
      timeoutMs: (LONGEST_REAL_WAIT_SECONDS + 30) * 1000,
    },
    async (t) => {
      const result = available(t, await expired(t));
      t.client.tokens.useToken(result.token);
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT_REQUESTS }, () => t.client.request(ME)),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses, 'every request succeeds with the one renewed token').toEqual(
        Array(CONCURRENT_REQUESTS).fill(200),
      );
      expect(t.client.tokens.tokenRequests, 'token requests for the whole group').toBe(1);
    },
  );

  for (const op of bearerOperations) {
    const route = `${op.method.toUpperCase()} ${op.path}`;

    check(
      {
        id: `REN-EXPIRED-${op.operationId}`,
        title: `${route} answers an expired token with SESSION_EXPIRED`,
        rules: ['REN-01'],
        timeoutMs: (LONGEST_REAL_WAIT_SECONDS + 30) * 1000,
      },
      async (t) => {
        const result = available(t, await expired(t));
        // Asked only of a check that would run: a skipped one sends nothing.
        await skipUnlessBearerTaken(t, op.operationId, bearerUse);
        const auth = { headers: { authorization: `Bearer ${result.token}` } };
        const res = await t.client.request(requestFor(op, t.config, auth));
        expectErrorBody(res, `${route} with an expired token`);
        expect(
          errorCode(res),
          `code of the answer of ${route} to an expired token (HTTP ${res.status})`,
        ).toBe('SESSION_EXPIRED');
      },
    );

    check(
      {
        id: `REN-RENEW-${op.operationId}`,
        title: `${route}: after SESSION_EXPIRED a new token is accepted and the repeated request succeeds`,
        rules: ['REN-02'],
        timeoutMs: (LONGEST_REAL_WAIT_SECONDS + 30) * 1000,
      },
      async (t) => {
        const result = available(t, await expired(t));
        // Asked only of a check that would run: a skipped one sends nothing.
        await skipUnlessBearerTaken(t, op.operationId, bearerUse);
        t.client.tokens.useToken(result.token);
        const res = await t.client.request({ ...requestFor(op, t.config, 'bearer'), renew: true });
        expectStatus(res, 200, `${route}, renewed once after SESSION_EXPIRED`);
        expect(t.client.tokens.tokenRequests, 'token requests for one renewal').toBe(1);
      },
    );
  }
});
