// GET /v1/customers: the paged envelope and its edges, with the default 137 customers in pages of 50.
import { describe, expect, it } from 'vitest';
import { type Envelope, expectErrorBody, withServer } from '../helpers.ts';

const CUSTOMERS = '/api/v1/customers';

describe('GET /v1/customers', () => {
  it('walks pages 1..3 of 137 customers in pages of 50 with the previous/next rules', async () => {
    await withServer({}, async (s) => {
      const seen: string[] = [];
      const expected = [
        { page: 1, showing: 50, previous: 1, next: 2 },
        { page: 2, showing: 50, previous: 1, next: 3 },
        { page: 3, showing: 37, previous: 2, next: 3 },
      ];
      for (const e of expected) {
        const answer = await s.withKey(`${CUSTOMERS}?page=${e.page}`);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        const body = answer.json as Envelope;
        expect(body.pagination).toEqual({
          total_items: 137,
          showing_items: e.showing,
          total_pages: 3,
          current_page: e.page,
          previous_page: e.previous,
          next_page: e.next,
        });
        expect(body.data).toHaveLength(e.showing);
        expect(body.extra).toEqual({});
        seen.push(...body.data.map((c) => c.id));
      }
      expect(new Set(seen).size).toBe(137);
    });
  });

  it('answers page 1 without a page parameter, the same data with a bearer token', async () => {
    await withServer({}, async (s) => {
      const plain = (await s.withKey(CUSTOMERS)).json as Envelope;
      expect(plain.pagination.current_page).toBe(1);
      expect((await s.withBearer(`${CUSTOMERS}?page=1`)).json).toEqual(plain);
    });
  });

  it.each(['4', '99', '0004', '123456789012345678901234567890'])(
    'page %s beyond the last answers 422 VALIDATION_ERROR stating the maximum page',
    async (page) => {
      await withServer({}, async (s) => {
        const body = expectErrorBody(await s.withKey(`${CUSTOMERS}?page=${page}`), 422, CUSTOMERS);
        expect(body.code).toBe('VALIDATION_ERROR');
        expect(body.message).toMatch(/\b3\b/);
        expect(body.errors).toEqual([]);
        expect(body.handled).toBe(true);
      });
    },
  );

  it.each(['0', '-1', 'abc', '1.5', '', '%00', '2&page=3'])(
    'page=%s answers a 4xx error body, never a 5xx',
    async (page) => {
      await withServer({}, async (s) => {
        const answer = await s.withKey(`${CUSTOMERS}?page=${page}`);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expectErrorBody(answer, answer.status, CUSTOMERS);
      });
    },
  );

  it('follows the customers and pageSize options (an empty collection still has one page)', async () => {
    await withServer({ customers: 10, pageSize: 4 }, async (s) => {
      const last = (await s.withKey(`${CUSTOMERS}?page=3`)).json as Envelope;
      expect(last.pagination).toMatchObject({
        total_items: 10,
        total_pages: 3,
        showing_items: 2,
        next_page: 3,
      });
    });
    await withServer({ customers: 0 }, async (s) => {
      const only = (await s.withKey(CUSTOMERS)).json as Envelope;
      expect(only.pagination).toMatchObject({
        total_items: 0,
        total_pages: 1,
        previous_page: 1,
        next_page: 1,
      });
      expect(expectErrorBody(await s.withKey(`${CUSTOMERS}?page=2`), 422).message).toMatch(/\b1\b/);
    });
  });

  it('is deterministic for a seed: two servers give the same customers', async () => {
    const page = () => withServer({}, async (s) => (await s.withKey(`${CUSTOMERS}?page=2`)).json);
    expect(await page()).toEqual(await page());
    const other = await withServer({ seed: 7 }, async (s) => (await s.withKey(`${CUSTOMERS}?page=2`)).json);
    expect(other).not.toEqual(await page());
  });
});
