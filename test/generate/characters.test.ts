// Every character in every field: the generated requests that send quotes, a backslash, % signs,
// control characters, escapes that are no UTF-8 and lone surrogates pass against the clean server,
// catch the fault of each kind, and without them (every other mutation sent) the fault passes. An
// answer that is no JSON text as sent joins the run's evidence, where INV-JSON-BYTES fails it, and
// only it.
import { afterAll, describe, expect, it } from 'vitest';
import { judgeInvariants } from '../../src/checks/invariants.ts';
import { buildOutgoing, createRecorder, curlOf, type RecordedExchange } from '../../src/client/index.ts';
import { compose, recording } from '../../src/client/interceptors.ts';
import { send } from '../../src/client/transport.ts';
import { loadSettings, resolveTarget, type TargetConfig } from '../../src/config/index.ts';
import { findOperation } from '../../src/contract/index.ts';
import { EDGE_VALUES, mutationsOf } from '../../src/generate/mutations.ts';
import { toApiRequest } from '../../src/generate/request.ts';
import { runGenerated } from '../../src/generate/run.ts';
import { requestSchemas } from '../../src/generate/schema.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';

const servers: RunningReferenceServer[] = [];

async function target(faults: string[] = []): Promise<TargetConfig> {
  const loaded = loadSettings({ CONFORMANCE_TARGET: 'local' }, { envFile: false });
  if (!loaded.ok) throw new Error('local settings');
  const server = await startReferenceServer({ faults });
  servers.push(server);
  return resolveTarget(loaded.settings, server);
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const NEW = /:characters$|^body:lone-surrogates$|^body:not-utf8$/;
const ids = (operationId: string, keep: (id: string) => boolean) =>
  Object.fromEntries(
    mutationsOf(requestSchemas(operationId))
      .map((m) => m.id)
      .filter(keep)
      .map((id) => [id, 1]),
  );

describe('every character in every field', () => {
  it('each string field, query and path value has its characters mutation, written as it goes on the wire', () => {
    const of = (op: string) =>
      mutationsOf(requestSchemas(op))
        .map((m) => m.id)
        .filter((id) => NEW.test(id));
    expect(of('listCustomers')).toEqual(['query.page:characters']);
    expect(of('listPets')).toEqual(['query.limit:characters']);
    expect(of('showPetById')).toEqual(['path.petId:characters']);
    expect(of('createPets')).toEqual([
      'body.name:characters',
      'body.tag:characters',
      'body:not-utf8',
      'body:lone-surrogates',
    ]);
    expect(of('createToken')).toEqual([
      'body.client_id:characters',
      'body.client_secret:characters',
      'body:not-utf8',
      'body:lone-surrogates',
    ]);
    const show = findOperation('showPetById');
    const petId = mutationsOf(requestSchemas('showPetById')).find((m) => m.id === 'path.petId:characters');
    const sent = toApiRequest(
      show,
      petId?.apply({ operationId: 'showPetById', auth: 'none', pathParams: { petId: '1' }, query: {} }) ?? {
        operationId: 'x',
        auth: 'none',
        pathParams: {},
        query: {},
      },
    );
    expect(sent.path).toBe(`pets/${EDGE_VALUES.escapedCharacters}`);
    const list = findOperation('listPets');
    const limit = mutationsOf(requestSchemas('listPets')).find((m) => m.id === 'query.limit:characters');
    const query = toApiRequest(
      list,
      limit?.apply({ operationId: 'listPets', auth: 'none', pathParams: {}, query: { limit: '5' } }) ?? {
        operationId: 'x',
        auth: 'none',
        pathParams: {},
        query: {},
      },
    );
    expect(query.path).toBe(`pets?limit=${EDGE_VALUES.escapedCharacters}`);
    expect(query.query).toBeUndefined();
  });

  it('the clean server passes them all', async () => {
    const config = await target();
    for (const operationId of ['listCustomers', 'listPets', 'showPetById', 'createPets', 'createToken']) {
      const run = await runGenerated({
        kind: 'invalid',
        operationId,
        config,
        seed: 11,
        runs: ids(operationId, (id) => NEW.test(id)),
      });
      expect(run.failure?.message, operationId).toBeUndefined();
      expect(run.passed, operationId).toBeGreaterThan(0);
    }
  });

  it.each([
    ['query-percent-500', 'listCustomers', /page has quotes.*answered 500/],
    ['query-percent-500', 'listPets', /limit has quotes.*answered 500/],
    ['path-not-utf8-500', 'showPetById', /petId has quotes.*%FF%C3%28 answered 500/],
    ['lone-surrogate-500', 'createPets', /name holds lone surrogates.*answered 500/],
    ['lone-surrogate-500', 'createToken', /client_id holds lone surrogates.*answered 500/],
    ['body-not-utf8-500', 'createPets', /bytes are no UTF-8.*answered 500/],
    ['body-not-utf8-500', 'createToken', /bytes are no UTF-8.*answered 500/],
  ])(
    '%s is caught on %s, and passes without the characters mutations',
    async (fault, operationId, message) => {
      const config = await target([fault]);
      const caught = await runGenerated({
        kind: 'invalid',
        operationId,
        config,
        seed: 11,
        runs: ids(operationId, (id) => NEW.test(id)),
      });
      expect(caught.failure?.rule).toBe('GNR-01');
      expect(caught.failure?.message).toMatch(message);
      const without = await runGenerated({
        kind: 'invalid',
        operationId,
        config,
        seed: 11,
        runs: ids(operationId, (id) => !NEW.test(id)),
      });
      expect(without.failure?.message).toBeUndefined();
    },
  );

  it('an error no UTF-8 joins the evidence: INV-JSON-BYTES fails it, and without it every invariant holds', async () => {
    const config = await target(['error-latin1']);
    const run = await runGenerated({
      kind: 'invalid',
      operationId: 'showPetById',
      config,
      seed: 11,
      runs: { 'path.petId:non-ascii': 1 },
    });
    // A refusal of a value no one promised to take: the generated check itself passes.
    expect(run.failure).toBeUndefined();
    const verdicts = judgeInvariants(
      run.exchanges.map((exchange) => ({ checkId: 'GNR-INVALID-showPetById', exchange })),
      config,
    );
    const bytes = verdicts.find((v) => v.id === 'INV-JSON-BYTES');
    expect(bytes?.status).toBe('failed');
    expect(bytes?.reason).toMatch(/the body is not UTF-8 \(byte \d+ .*GET \/petstore\/v1\/pets\/Zo/);
    expect(verdicts.filter((v) => v.status === 'failed' && v.id !== 'INV-JSON-BYTES')).toEqual([]);
  });

  it('a body that is no UTF-8 goes as its bytes, and its curl line writes them', async () => {
    const seen: Buffer[] = [];
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push(Buffer.concat(chunks));
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const mutation = mutationsOf(requestSchemas('createPets')).find((m) => m.id === 'body:not-utf8');
      const req = mutation?.apply({
        operationId: 'createPets',
        auth: 'none',
        pathParams: {},
        query: {},
        body: { kind: 'json', value: { id: 7, name: 'x' } },
      });
      const api = toApiRequest(findOperation('createPets'), req as NonNullable<typeof req>);
      const recorder = createRecorder([]);
      const out = buildOutgoing(api, {
        apiBaseUrl: `${origin}/api/`,
        petstoreBaseUrl: `${origin}/petstore/v1`,
        credentials: { apiKeyId: 'k', apiKeySecret: 's' },
      });
      await compose(
        (o) => send(o, { timeoutMs: 10_000, maxBodyBytes: 1 << 20, allowedOrigins: [origin] }),
        recording(recorder),
      )(out, {
        retryOn429: false,
        renew: false,
        generated: true,
      });
      expect(seen[0]?.toString('latin1')).toBe('{"id":7,"name":"Rex \xff\xc3("}');
      const [exchange] = recorder.exchanges();
      expect(curlOf(exchange as RecordedExchange)).toMatch(
        /^printf '\{"id":7,"name":"Rex \\377\\303\("\}' \| curl /,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
