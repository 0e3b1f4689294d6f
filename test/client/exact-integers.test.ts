// A Pet id is an int64: a server may store 9007199254740993 exactly and list it first. Read with
// JSON.parse it is 9007199254740992, a pet that does not exist, and GEN-01, GNR-02 and
// PET-DEPRECATED once blamed the 404 on the target. Read exactly, the suite asks for the pet listed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseExactJson } from '../../src/client/exact-json.ts';
import { createApiClient } from '../../src/client/index.ts';
import { validateComponent } from '../../src/contract/index.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { stagingThrough, startForwardingProxy } from '../support/forwarding-proxy.ts';
import { runTs } from '../support/run-node.ts';
import { stagingConfigOf } from '../support/target-config.ts';

const BIG = ['9007199254740993', '9223372036854775807', '-9223372036854775808'];

describe('parseExactJson', () => {
  it('keeps integers beyond 2^53 exact and reads everything else as JSON.parse does', () => {
    const text = `{"ids":[${BIG.join(',')}],"n":1.5,"s":"\\u00e9\\"","a":1,"a":2,"e":1e3,"z":-0}`;
    const exact = parseExactJson(text) as { ids: bigint[] };
    expect(exact.ids).toEqual(BIG.map(BigInt));
    const { ids: _ids, ...rest } = exact as unknown as Record<string, unknown>;
    const { ids: _lossy, ...native } = JSON.parse(text) as Record<string, unknown>;
    expect(rest).toEqual(native);
  });

  it.each(['{"a":1,}', '[1 2]', '01', '"\t"', '{"a"}', '', '1.', `{"id":${BIG[0]},}`])(
    'refuses %j as JSON.parse does',
    (bad) => {
      expect(() => parseExactJson(bad)).toThrow(SyntaxError);
      expect(() => JSON.parse(bad)).toThrow(SyntaxError);
    },
  );
});

describe('int64 judged on the exact value', () => {
  it('an id within int64 is valid, one beyond it is not, even where the double rounds into range', () => {
    for (const id of BIG)
      expect(validateComponent('petstore', 'Pet', parseExactJson(`{"id":${id},"name":"a"}`)).valid).toBe(
        true,
      );
    // 2^63 as a double is 2^63, which a double bound lets through: the exact value does not.
    for (const id of ['9223372036854775808', '-9223372036854775809'])
      expect(validateComponent('petstore', 'Pet', parseExactJson(`{"id":${id},"name":"a"}`)).valid).toBe(
        false,
      );
  });
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('the client against a server that stores every int64 (pet-ids=int64)', () => {
  it('lists and reads back pets with ids 2^53+1, 2^63-1 and -2^63, and sends one back exactly', async () => {
    const server = await startReferenceServer({ choices: { 'pet-ids': 'int64' }, pets: 2 });
    closers.push(() => server.close());
    const client = createApiClient(stagingConfigOf(server, { requestTimeoutMs: 10_000 }));
    const list = await client.request({ service: 'petstore', method: 'GET', path: 'pets', auth: 'none' });
    const listed = (list.body as { id: unknown }[]).map((p) => p.id);
    expect(listed).toEqual([
      BigInt(BIG[1] as string),
      BigInt(BIG[0] as string),
      2,
      1,
      BigInt(BIG[2] as string),
    ]);
    for (const id of BIG) {
      const read = await client.request({
        service: 'petstore',
        method: 'GET',
        path: `pets/${id}`,
        auth: 'none',
      });
      expect(read.status).toBe(200);
      expect((read.body as { id: unknown }).id).toBe(BigInt(id));
    }
    // A listed id plus one, sent back as a bigint: the server stores that exact id.
    const next = BigInt(BIG[0] as string) + 1n;
    const created = await client.request({
      service: 'petstore',
      method: 'POST',
      path: 'pets',
      auth: 'none',
      body: { id: next, name: 'exact' },
    });
    expect(created.status).toBe(201);
    const back = await client.request({
      service: 'petstore',
      method: 'GET',
      path: `pets/${next}`,
      auth: 'none',
    });
    expect((back.body as { id: unknown }).id).toBe(next);
  });
});

describe('a target that lists a pet with an id beyond 2^53 first', () => {
  it('passes the pet checks: the listed id is the one asked for', async () => {
    const server = await startReferenceServer({ control: true });
    closers.push(() => server.close());
    // The first pet listed is renamed to the big id; asked for by it, the proxy asks upstream for
    // that pet and answers with the big id, headers and all.
    let firstId: string | undefined;
    const proxy = await startForwardingProxy(server.apiBaseUrl, {
      upstreamPath: (seen) =>
        firstId !== undefined && seen.url.endsWith(`/pets/${BIG[0]}`)
          ? seen.url.replace(`/pets/${BIG[0]}`, `/pets/${firstId}`)
          : seen.url,
      rewrite: (body, status, seen) => {
        const path = seen.url.split('?')[0] ?? '';
        if (seen.method === 'GET' && path.endsWith(`/pets/${BIG[0]}`) && status === 200) {
          return body.replace(/^\{"id":-?\d+/, `{"id":${BIG[0]}`);
        }
        if (seen.method === 'GET' && path.endsWith('/pets') && status === 200) {
          const first = /^\[\{"id":(-?\d+)/.exec(body);
          if (!first) return body;
          firstId = first[1];
          return body.replace(/^\[\{"id":-?\d+/, `[{"id":${BIG[0]}`);
        }
        return body;
      },
    });
    closers.push(() => proxy.close());
    const dir = mkdtempSync(join(tmpdir(), 'big-ids-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const run = await runTs('src/cli/conformance.ts', ['--area', 'pets', '--area', 'operations'], {
      env: stagingThrough(proxy.origin, server.credentials, dir),
    });
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      checks: { id: string; status: string; reason?: string }[];
    };
    const failed = results.checks.filter((x) => x.status === 'failed').map((x) => `${x.id}: ${x.reason}`);
    expect(failed, run.stdout.slice(-1500)).toEqual([]);
    expect(results.checks.find((x) => x.id === 'PET-DEPRECATED')?.status).toBe('passed');
    expect(run.code).toBe(0);
  }, 600_000);
});
