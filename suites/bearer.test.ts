// The bearer scheme and the refusals every protected route owes: no credentials, a token the
// service never issued, and the scheme the route does not accept. Derived from the OpenAPI
// documents, so a new protected route is covered without new test code.
import { ensure, expectRefusal, expectStatus } from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { acceptedNearMisses, nearMisses } from '../src/checks/near-miss.ts';
import { isProtected, madeUp, refusedSchemes, requestFor } from '../src/checks/operation-requests.ts';
import { expectRelations } from '../src/checks/relation-check.ts';
import { skipUnlessBearerTaken } from '../src/checks/route-schemes.ts';
import { operations } from '../src/contract/index.ts';

const protectedOperations = operations().filter(isProtected);
const FOREIGN_TOKEN = { headers: { authorization: 'Bearer not-a-token-issued-by-the-service' } };
// Authorization headers that carry no token the service could have issued.
const MALFORMED: { what: string; authorization: string }[] = [
  { what: 'the scheme without a token', authorization: 'Bearer' },
  { what: 'the scheme and a blank', authorization: 'Bearer   ' },
  { what: 'a token of symbols', authorization: 'Bearer ***' },
  { what: 'a JWT-shaped token', authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' },
  { what: 'a 4 KiB token', authorization: `Bearer ${'x'.repeat(4096)}` },
];

// An issued token under a header that is not `Bearer <token>`: a server that reads the last word
// whatever the scheme says would accept them. Trailing text after the token is left out: whether
// `Bearer <token> x` is refused or read as the token is not shown.
const schemeNearMisses = (token: string): { what: string; authorization: string }[] => [
  { what: 'the issued token under the Basic scheme', authorization: `Basic ${token}` },
  { what: 'the issued token under a Token scheme', authorization: `Token ${token}` },
  { what: 'the issued token with no scheme', authorization: token },
  { what: 'the issued token after another word and Bearer', authorization: `X Bearer ${token}` },
];

area('bearer', () => {
  for (const op of protectedOperations) {
    const route = `${op.method.toUpperCase()} ${op.path}`;

    if (op.security.includes('bearer')) {
      check(
        { id: `BEA-ACCEPT-${op.operationId}`, title: `${route} accepts a bearer token`, rules: ['BEA-01'] },
        async (t) => {
          await skipUnlessBearerTaken(t, op.operationId);
          const res = await t.client.request({ ...requestFor(op, t.config, 'bearer'), renew: true });
          expectStatus(res, 200, `${route} with a bearer token`);
        },
      );

      check(
        {
          id: `BEA-FOREIGN-${op.operationId}`,
          title: `${route} refuses a token the service never issued`,
          rules: ['BEA-04'],
        },
        async (t) => {
          expectRefusal(
            await t.client.request(madeUp(requestFor(op, t.config, FOREIGN_TOKEN))),
            `${route} with a foreign token`,
          );
        },
      );
    }

    if (op.security.includes('bearer')) {
      check(
        {
          id: `BEA-MALFORMED-${op.operationId}`,
          title: `${route} refuses malformed bearer tokens`,
          rules: ['BEA-04'],
        },
        async (t) => {
          for (const m of MALFORMED) {
            const auth = { headers: { authorization: m.authorization } };
            expectRefusal(
              await t.client.request(madeUp(requestFor(op, t.config, auth))),
              `${route} with ${m.what}`,
            );
          }
        },
      );

      check(
        {
          id: `BEA-NEAR-MISS-${op.operationId}`,
          title: `${route} refuses near misses of an issued token`,
          rules: ['BEA-04'],
        },
        async (t) => {
          const token = await t.client.tokens.getToken();
          const answers = await Promise.all(
            nearMisses(token).map(async (m) => {
              const auth = { headers: { authorization: `Bearer ${m.value}` } };
              const res = await t.client.request(requestFor(op, t.config, auth));
              return { what: m.what, status: res.status, res };
            }),
          );
          const accepted = acceptedNearMisses(answers);
          ensure(
            accepted === '',
            `${route} accepted near misses of an issued token: ${accepted}`,
            answers.find((a) => a.status < 400 || a.status > 499)?.res,
          );
          for (const a of answers) expectRefusal(a.res, `${route} with ${a.what} of an issued token`);
        },
      );
    }

    if (op.security.includes('bearer')) {
      check(
        {
          id: `BEA-SCHEME-NEAR-MISS-${op.operationId}`,
          title: `${route} takes an issued token only after the Bearer scheme`,
          rules: ['BEA-05'],
        },
        async (t) => {
          const token = await t.client.tokens.getToken();
          for (const m of schemeNearMisses(token)) {
            const auth = { headers: { authorization: m.authorization } };
            expectRefusal(
              await t.client.request(madeUp(requestFor(op, t.config, auth))),
              `${route} with ${m.what}`,
            );
          }
        },
      );
    }

    check(
      {
        id: `BEA-NO-CREDENTIALS-${op.operationId}`,
        title: `${route} refuses a request without credentials`,
        rules: ['BEA-02'],
      },
      async (t) => {
        expectRefusal(
          await t.client.request(requestFor(op, t.config, 'none')),
          `${route} without credentials`,
        );
      },
    );

    for (const scheme of refusedSchemes(op)) {
      check(
        {
          id: `BEA-WRONG-SCHEME-${op.operationId}`,
          title: `${route} refuses the ${scheme === 'apiKey' ? 'API key' : 'bearer token'} it does not accept`,
          rules: ['BEA-03'],
        },
        async (t) => {
          expectRefusal(
            await t.client.request(requestFor(op, t.config, scheme)),
            `${route} with the ${scheme} scheme`,
          );
        },
      );
    }
  }
  // The same question in other forms (a trailing slash, an unknown parameter, a percent-encoded or
  // reordered query): where the spec is silent a form may be refused, but an anonymous request stays
  // anonymous and a page stays the same page (relations.ts). All sent at once.
  check(
    {
      id: 'BEA-EACH-FORM',
      title:
        'every form of a protected request is refused without credentials, and a page asked in another form is the same page',
      rules: ['BEA-02', 'PAG-06'],
    },
    async (t) => {
      const anonymous = protectedOperations.flatMap((op) => {
        const plain = requestFor(op, t.config, 'none');
        return [
          plain,
          // The route's own path, no id in it: the forms append to it.
          { ...plain, path: plain.path.concat('/') },
          { ...plain, path: plain.path.concat('?conformance_probe=1') },
        ];
      });
      const page = (path: string) => ({
        service: 'main' as const,
        method: 'GET' as const,
        path,
        auth: 'apiKey' as const,
        renew: false,
      });
      const pages = [
        page('v1/customers?page=1'),
        page('v1/customers?page=%31'),
        page('v1/customers?conformance_probe=1&page=1'),
        page('v1/customers/?page=1'),
      ];
      await Promise.all([...anonymous, ...pages].map((req) => t.client.request(req)));
      expectRelations(t, ['REL-ANONYMOUS-EACH-FORM', 'REL-SAME-PAGE-EACH-FORM']);
    },
  );
});
