// The API key scheme: accepted where a route allows it, refused when wrong (far off or a near miss),
// and refused from the wrong address when pinned, whatever address the request claims.
import { ensure, expectRefusal, expectStatus, is2xx } from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { acceptedNearMisses, addressClaims, nearMisses } from '../src/checks/near-miss.ts';
import { madeUp, requestFor } from '../src/checks/operation-requests.ts';
import { expectRelations } from '../src/checks/relation-check.ts';
import { shared } from '../src/checks/shared.ts';
import { operations } from '../src/contract/index.ts';

const apiKeyOperations = operations().filter((op) => op.security.includes('apiKey'));

// Each route with the API key, asked once before any refusal of the area (the KEY-ACCEPT checks
// come first and run alone) and again after all of them (KEY-ACCEPTED-AFTER-REFUSALS, last): a
// wrong or near-miss secret must not change what the key itself is answered.
const keyAccepted = shared(async (client, config) => {
  const answers = await Promise.all(
    apiKeyOperations.map(async (op) => ({ op, res: await client.request(requestFor(op, config, 'apiKey')) })),
  );
  return { answers, exchanges: client.recorder.exchanges() };
});

function keyHeaders(id: string, secret: string, extra: Record<string, string> = {}) {
  return { headers: { 'x-api-key-id': id, 'x-api-key-secret': secret, ...extra } };
}

// TEST-NET-2 (RFC 5737): never the address of the machine that runs the suite.
const PINNED_ELSEWHERE = '198.51.100.23';

area('api-key', () => {
  for (const op of apiKeyOperations) {
    const route = `${op.method.toUpperCase()} ${op.path}`;
    check(
      {
        id: `KEY-ACCEPT-${op.operationId}`,
        title: `${route} accepts the API key`,
        rules: ['KEY-01'],
        sequential: true,
      },
      async (t) => {
        const { answers } = await keyAccepted(t);
        const res = answers.find((a) => a.op === op)?.res;
        if (!res) throw new Error(`no API key question for ${op.operationId}`);
        expectStatus(res, is2xx, `${route} with the API key`);
      },
    );
  }

  for (const op of apiKeyOperations) {
    const route = `${op.method.toUpperCase()} ${op.path}`;

    check(
      {
        id: `KEY-WRONG-SECRET-${op.operationId}`,
        title: `${route} refuses a known key id with a wrong secret`,
        rules: ['KEY-02'],
      },
      async (t) => {
        const auth = keyHeaders(t.config.credentials.apiKeyId, 'wrong-secret-for-conformance');
        expectRefusal(
          await t.client.request(madeUp(requestFor(op, t.config, auth))),
          `${route} with a wrong key secret`,
        );
      },
    );

    check(
      {
        id: `KEY-UNKNOWN-ID-${op.operationId}`,
        title: `${route} refuses an unknown key id`,
        rules: ['KEY-02'],
      },
      async (t) => {
        const auth = keyHeaders('conformance-unknown-key', 'conformance-unknown-secret');
        expectRefusal(
          await t.client.request(madeUp(requestFor(op, t.config, auth))),
          `${route} with an unknown key id`,
        );
      },
    );

    check(
      {
        id: `KEY-NEAR-MISS-${op.operationId}`,
        title: `${route} refuses near misses of the key secret, and one key's id with another's secret`,
        rules: ['KEY-02'],
      },
      async (t) => {
        const { apiKeyId, apiKeySecret } = t.config.credentials;
        const misses = nearMisses(apiKeySecret).map((m) => ({ ...m, id: apiKeyId }));
        // Another key: the pinned one when configured, else a fresh one from the control API.
        const control = t.config.credentials.pinnedApiKey ? undefined : t.config.controlUrl;
        const other =
          t.config.credentials.pinnedApiKey ??
          (control ? await t.needControl('a second key').createApiKey() : undefined);
        if (other) {
          misses.push({ what: "the key id with another key's secret", id: apiKeyId, value: other.secret });
        }
        const answers = await Promise.all(
          misses.map(async (m) => {
            const res = await t.client.request(requestFor(op, t.config, keyHeaders(m.id, m.value)));
            return { what: m.what, status: res.status, res };
          }),
        );
        const accepted = acceptedNearMisses(answers);
        ensure(
          accepted === '',
          `${route} accepted near misses of API_KEY_SECRET: ${accepted}`,
          answers.find((a) => a.status < 400 || a.status > 499)?.res,
        );
        for (const a of answers) expectRefusal(a.res, `${route} with ${a.what}`);
      },
    );

    check(
      {
        id: `KEY-HALF-${op.operationId}`,
        title: `${route} refuses half an API key: the id without its secret, the secret without its id`,
        rules: ['KEY-02'],
      },
      async (t) => {
        const { apiKeyId, apiKeySecret } = t.config.credentials;
        const halves: { what: string; headers: Record<string, string> }[] = [
          { what: 'the key id without its secret', headers: { 'x-api-key-id': apiKeyId } },
          { what: 'the key secret without its id', headers: { 'x-api-key-secret': apiKeySecret } },
        ];
        for (const half of halves) {
          const res = await t.client.request(requestFor(op, t.config, { headers: half.headers }));
          expectRefusal(res, `${route} with ${half.what}`);
        }
      },
    );

    check(
      {
        id: `KEY-PINNED-CLAIMS-${op.operationId}`,
        title: `${route} refuses a pinned key whatever address the request's headers claim`,
        rules: ['KEY-03'],
      },
      async (t) => {
        // The pinned address comes from configuration (PINNED_API_KEY_ADDRESS, or the address the
        // run pinned a fresh key to), never from the target: a server's own word for the address
        // would let it agree with itself.
        const configured = t.config.credentials.pinnedApiKey;
        const key =
          configured?.address !== undefined
            ? { id: configured.id, secret: configured.secret, address: configured.address }
            : {
                ...(await t
                  .needControl(
                    'PINNED_API_KEY_ADDRESS (with the pinned key), or a control API to pin a key to an address the suite chose',
                  )
                  .createApiKey(undefined, PINNED_ELSEWHERE)),
                address: PINNED_ELSEWHERE,
              };
        const send = (extra: Record<string, string>) =>
          t.client.request(requestFor(op, t.config, keyHeaders(key.id, key.secret, extra)));
        const claims = addressClaims(key.address);
        const all = await send(claims);
        if (all.status < 400 || all.status > 499) {
          // Name the header(s) the target believed.
          const one = await Promise.all(
            Object.entries(claims).map(async ([name, value]) => ({
              what: name,
              status: (await send({ [name]: value })).status,
            })),
          );
          const believed = acceptedNearMisses(one);
          ensure(
            false,
            `${route} accepted a key pinned to ${key.address} from elsewhere when the request claimed that address${believed ? ` in ${believed}` : ' (with every claiming header at once)'}`,
            all,
          );
        }
        expectRefusal(all, `${route} with a key pinned elsewhere and headers claiming its address`);
      },
    );

    check(
      {
        id: `KEY-PINNED-OWN-${op.operationId}`,
        title: `${route} accepts a pinned key from the address it is pinned to`,
        rules: ['KEY-03'],
      },
      async (t) => {
        // "accepted only from that server": refusing the pinned server too would pass every
        // refusal above, so the key pinned to the suite's own address must work.
        // The run's own address, as the run knows it (a loopback connection); never asked of the
        // target, whose answer a key refused from everywhere would agree with.
        const caller = t.config.callerAddress;
        if (caller === undefined) {
          return t.skip(
            'the run does not know the address the target sees it at (not a loopback connection)',
          );
        }
        const control = t.needControl('the suite must pin a fresh key to its own address');
        const key = await control.createApiKey(undefined, caller);
        const res = await t.client.request(requestFor(op, t.config, keyHeaders(key.id, key.secret)));
        expectStatus(res, is2xx, `${route} with a key pinned to the caller's own address`);
      },
    );

    check(
      {
        id: `KEY-PINNED-${op.operationId}`,
        title: `${route} refuses a key pinned to another address`,
        rules: ['KEY-03'],
      },
      async (t) => {
        const pinned = t.config.credentials.pinnedApiKey;
        if (!pinned) return t.skip('no PINNED_API_KEY_ID / PINNED_API_KEY_SECRET configured for this target');
        const auth = keyHeaders(pinned.id, pinned.secret);
        expectRefusal(await t.client.request(requestFor(op, t.config, auth)), `${route} with the pinned key`);
      },
    );
  }

  // Last, alone: every refusal and near miss of the area has been answered.
  check(
    {
      id: 'KEY-ACCEPTED-AFTER-REFUSALS',
      title:
        "after the area's wrong, near-miss and pinned keys, each route answers the API key as it did before",
      rules: ['KEY-01'],
      sequential: true,
    },
    async (t) => {
      const before = await keyAccepted(t);
      await Promise.all(apiKeyOperations.map((op) => t.client.request(requestFor(op, t.config, 'apiKey'))));
      expectRelations(t, ['REL-ACCEPTED-AFTER-REFUSALS'], {
        checkId: 'KEY-ACCEPTED-AFTER-REFUSALS',
        earlier: before.exchanges,
      });
    },
  );
});
