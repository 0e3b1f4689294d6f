// The bearer scheme and the refusals every protected route owes: no credentials, a token the
// service never issued, and the scheme the route does not accept. Derived from the OpenAPI
// documents, so a new protected route is covered without new test code.
import { ensure, errorCode, expectRefusal, expectStatus } from '../src/checks/assertions.ts';
import { area, type CheckContext, check } from '../src/checks/define.ts';
import { acceptedNearMisses, nearMisses } from '../src/checks/near-miss.ts';
import { isProtected, madeUp, refusedSchemes, requestFor } from '../src/checks/operation-requests.ts';
import { expectRelations } from '../src/checks/relation-check.ts';
import { customersBearerOf } from '../src/checks/route-schemes.ts';
import { shared } from '../src/checks/shared.ts';
import { ACCESS_TOKEN } from '../src/client/index.ts';
import { operations } from '../src/contract/index.ts';

const protectedOperations = operations().filter(isProtected);

// The area's acceptance questions: every protected route through each scheme it takes, with one
// token. Asked once, before any refusal of the area (the BEA-ACCEPT checks come first and run
// alone), and again after all of them (BEA-ACCEPTED-AFTER-REFUSALS, last): a refusal must not
// change what a credential is answered. The near-miss checks derive their near misses from this
// very token, so a refusal that ends the token it nearly matched shows there.
const questions = protectedOperations.flatMap((op) =>
  (['bearer', 'apiKey'] as const)
    .filter((scheme) => op.security.includes(scheme))
    .map((scheme) => ({ op, scheme })),
);
const accepted = shared(async (client, config) => {
  const answers = await Promise.all(
    questions.map(async ({ op, scheme }) => ({
      op,
      scheme,
      res: await client.request({ ...requestFor(op, config, scheme), renew: scheme === 'bearer' }),
    })),
  );
  return { client, answers, exchanges: client.recorder.exchanges() };
});
const bearerAnswer = (answers: Awaited<ReturnType<typeof accepted>>['answers'], operationId: string) => {
  const found = answers.find((a) => a.op.operationId === operationId && a.scheme === 'bearer');
  if (!found) throw new Error(`no bearer question for ${operationId}`);
  return found.res;
};
/** The area's token, known to this check's recorder (its near misses are redacted as it is). */
const areaToken = async (t: CheckContext): Promise<string> => {
  const token = await (await accepted(t)).client.tokens.getToken();
  t.client.recorder.learn(token, ACCESS_TOKEN);
  return token;
};
// Each protected route asked without credentials once: BEA-NO-CREDENTIALS-<route> judges the answer,
// and BEA-EACH-FORM compares its other forms with it (the same request twice proved nothing new).
const anonymous = new Map(
  protectedOperations.map((op) => [
    op.operationId,
    shared(async (client, config) => ({
      res: await client.request(requestFor(op, config, 'none')),
      exchanges: client.recorder.exchanges(),
    })),
  ]),
);
const anonymousAnswer = (t: CheckContext, operationId: string) => {
  const ask = anonymous.get(operationId);
  if (!ask) throw new Error(`no anonymous question for ${operationId}`);
  return ask(t);
};
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
  // First, each alone: the acceptance questions are asked before any refusal of the area.
  for (const op of protectedOperations.filter((o) => o.security.includes('bearer'))) {
    const route = `${op.method.toUpperCase()} ${op.path}`;
    check(
      {
        id: `BEA-ACCEPT-${op.operationId}`,
        title: `${route} accepts a bearer token`,
        rules: ['BEA-01'],
        sequential: true,
      },
      async (t) => {
        const { answers } = await accepted(t);
        const res = bearerAnswer(answers, op.operationId);
        // Whether GET /v1/customers takes a bearer token: judged from the area's answers, which
        // asked the very questions detection asks (route-schemes.ts), not asked a second time.
        if (op.operationId === 'listCustomers') {
          const use = customersBearerOf(t.config, res, bearerAnswer(answers, 'getCurrentUser'));
          if (!use.taken) t.skip(`not this route's scheme here: ${use.how}`);
        }
        expectStatus(res, 200, `${route} with a bearer token`);
      },
    );
  }

  for (const op of protectedOperations) {
    const route = `${op.method.toUpperCase()} ${op.path}`;

    if (op.security.includes('bearer')) {
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
          const token = await areaToken(t);
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
          const token = await areaToken(t);
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
        expectRefusal((await anonymousAnswer(t, op.operationId)).res, `${route} without credentials`);
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
      // The plain request's answer is BEA-NO-CREDENTIALS-<route>'s (shared), compared as this check's own.
      const plain = Promise.all(protectedOperations.map((op) => anonymousAnswer(t, op.operationId)));
      const forms = protectedOperations.flatMap((op) => {
        const request = requestFor(op, t.config, 'none');
        return [
          // The route's own path, no id in it: the forms append to it.
          { ...request, path: request.path.concat('/') },
          { ...request, path: request.path.concat('?conformance_probe=1') },
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
      const [answers] = await Promise.all([
        plain,
        Promise.all([...forms, ...pages].map((req) => t.client.request(req))),
      ]);
      expectRelations(t, ['REL-ANONYMOUS-EACH-FORM', 'REL-SAME-PAGE-EACH-FORM'], {
        earlier: answers.flatMap((a) => a.exchanges),
      });
    },
  );

  // Last, alone: every refusal and near miss of the area has been answered. The same questions
  // again, the bearer ones with the same token: the answers they got before, or an expired
  // session renewed and repeated once (the spec's one end of a token).
  check(
    {
      id: 'BEA-ACCEPTED-AFTER-REFUSALS',
      title:
        "after the area's refusals and near misses, each protected route answers each credential as it did before",
      rules: ['BEA-01', 'KEY-01'],
      sequential: true,
    },
    async (t) => {
      const before = await accepted(t);
      const token = await areaToken(t);
      await Promise.all(
        questions.map(async ({ op, scheme }) => {
          const auth = scheme === 'bearer' ? { headers: { authorization: `Bearer ${token}` } } : scheme;
          const res = await t.client.request(requestFor(op, t.config, auth));
          if (scheme === 'bearer' && errorCode(res) === 'SESSION_EXPIRED') {
            await t.client.request({ ...requestFor(op, t.config, 'bearer'), renew: true });
          }
        }),
      );
      expectRelations(t, ['REL-ACCEPTED-AFTER-REFUSALS'], {
        checkId: 'BEA-ACCEPTED-AFTER-REFUSALS',
        earlier: before.exchanges,
      });
    },
  );
});
