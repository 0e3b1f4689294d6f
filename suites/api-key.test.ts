// The API key scheme: accepted where a route allows it, refused when wrong, and refused from the
// wrong address when pinned.
import { expectRefusal, expectStatus, is2xx } from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { requestFor } from '../src/checks/operation-requests.ts';
import { operations } from '../src/contract/index.ts';

const apiKeyOperations = operations().filter((op) => op.security.includes('apiKey'));

function keyHeaders(id: string, secret: string) {
  return { headers: { 'x-api-key-id': id, 'x-api-key-secret': secret } };
}

area('api-key', () => {
  for (const op of apiKeyOperations) {
    const route = `${op.method.toUpperCase()} ${op.path}`;

    check(
      { id: `KEY-ACCEPT-${op.operationId}`, title: `${route} accepts the API key`, rules: ['KEY-01'] },
      async (t) => {
        const res = await t.client.request(requestFor(op, t.config, 'apiKey'));
        expectStatus(res, is2xx, `${route} with the API key`);
      },
    );

    check(
      {
        id: `KEY-WRONG-SECRET-${op.operationId}`,
        title: `${route} refuses a known key id with a wrong secret`,
        rules: ['KEY-02'],
      },
      async (t) => {
        const auth = keyHeaders(t.config.credentials.apiKeyId, 'wrong-secret-for-conformance');
        expectRefusal(
          await t.client.request(requestFor(op, t.config, auth)),
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
          await t.client.request(requestFor(op, t.config, auth)),
          `${route} with an unknown key id`,
        );
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
});
