// The pet-ids choice: `safe` keeps ids from 1 to 2^53-1 (others refused), `int64` stores every
// int64 exactly and lists highest first, its x-next cursor walking the whole store, negatives too.
import { describe, expect, it } from 'vitest';
import { parseExactIntegers } from '../../../src/reference/int64-json.ts';
import { call, expectErrorBody, withServer } from '../helpers.ts';

const PETS = '/petstore/v1/pets';
const EDGES = [2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)];
type Pet = { id: number | bigint; name: string };
// Bodies are sent as text: a number beyond 2^53 goes as written.
const JSON_TEXT = { 'content-type': 'application/json' };
const ids = (text: string) => (parseExactIntegers(text) as Pet[]).map((p) => BigInt(p.id));

describe('pet-ids=int64', () => {
  it('lists every pet once, highest id first, the int64 edges exact, through x-next', async () => {
    await withServer({ choices: { 'pet-ids': 'int64' }, pets: 5 }, async (s) => {
      const seen: bigint[] = [];
      let next: string | undefined = s.url(`${PETS}?limit=3`);
      for (let page = 0; next && page < 10; page++) {
        const answer = await call(next);
        expect(answer.status).toBe(200);
        seen.push(...ids(answer.text));
        next = answer.headers['x-next'];
      }
      expect(seen).toEqual([EDGES[1], EDGES[0], 5n, 4n, 3n, 2n, 1n, EDGES[2]]);
    });
  });

  it('creates and reads back pets with ids beyond 2^53 and negative ones, exactly', async () => {
    await withServer({ choices: { 'pet-ids': 'int64' }, pets: 0 }, async (s) => {
      for (const id of ['9007199254740995', '-9007199254740995', '-1']) {
        const created = await s.call(PETS, {
          method: 'POST',
          headers: JSON_TEXT,
          body: `{"id":${id},"name":"n"}`,
        });
        expect(created.status, created.text).toBe(201);
        expect(created.headers.location).toBe(`${PETS}/${id}`);
        const read = await s.call(`${PETS}/${id}`);
        expect(read.status).toBe(200);
        expect(read.text).toBe(`{"id":${id},"name":"n"}`);
      }
      // Beyond int64, in the body and in the path: refused.
      const over = await s.call(PETS, {
        method: 'POST',
        headers: JSON_TEXT,
        body: '{"id":9223372036854775808,"name":"n"}',
      });
      expectErrorBody(over, 400, PETS);
      expectErrorBody(await s.call(`${PETS}/9223372036854775808`), 400, `${PETS}/9223372036854775808`);
    });
  });
});

describe('pet-ids=safe (the default)', () => {
  it('refuses an id beyond 2^53 or below 1, and seeds no edge pets', async () => {
    await withServer({ pets: 2 }, async (s) => {
      for (const id of ['9007199254740993', '-1']) {
        expectErrorBody(
          await s.call(PETS, { method: 'POST', headers: JSON_TEXT, body: `{"id":${id},"name":"n"}` }),
          400,
          PETS,
        );
      }
      expect(ids((await s.call(PETS)).text)).toEqual([1n, 2n]);
    });
  });
});
