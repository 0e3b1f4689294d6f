// The demo pet interface: list with limit, create with 201/400/409, show with its Deprecation
// header, and concurrent creation (issue 7: nothing lost, a duplicate accepted exactly once).
import { describe, expect, it } from 'vitest';
import { expectErrorBody, withServer } from '../helpers.ts';

const PETS = '/petstore/v1/pets';
type Pet = { id: number; name: string; tag?: string; status?: string };

describe('GET /pets', () => {
  it('lists 100 pets by default, in id order, each a valid Pet', async () => {
    await withServer({}, async (s) => {
      const answer = await s.call(PETS);
      expect(answer.status).toBe(200);
      const pets = answer.json as Pet[];
      expect(pets).toHaveLength(100);
      expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      for (const pet of pets) {
        expect(Number.isInteger(pet.id)).toBe(true);
        expect(typeof pet.name).toBe('string');
        if (pet.status !== undefined) expect(['available', 'pending', 'sold']).toContain(pet.status);
      }
      expect(answer.headers['x-next']).toBe(s.url(`${PETS}?limit=100&after=100`));
      const rest = await s.call(`${PETS}?limit=100&after=100`);
      expect((rest.json as Pet[]).map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 101));
      expect(rest.headers['x-next']).toBeUndefined();
    });
  });

  it('honours limit up to 100 and refuses more, zero or a non-integer with 400', async () => {
    await withServer({}, async (s) => {
      expect((await s.call(`${PETS}?limit=7`)).json).toHaveLength(7);
      expect((await s.call(`${PETS}?limit=100`)).json).toHaveLength(100);
      for (const limit of ['101', '0', '-5', 'ten', '2.5']) {
        expect(expectErrorBody(await s.call(`${PETS}?limit=${limit}`), 400, PETS).code).toBe(
          'VALIDATION_ERROR',
        );
      }
    });
  });
});

describe('POST /pets and GET /pets/{petId}', () => {
  it('creates a pet (201, Location) and shows it with a Deprecation header', async () => {
    await withServer({}, async (s) => {
      const pet = { id: 5000, name: 'Rex', tag: 'dog', status: 'pending' };
      const created = await s.call(PETS, { method: 'POST', body: pet });
      expect(created.status).toBe(201);
      expect(created.text).toBe('');
      expect(created.headers.location).toBe(`${PETS}/5000`);
      const shown = await s.call(`${PETS}/5000`);
      expect(shown.status).toBe(200);
      expect(shown.json).toEqual(pet);
      expect(shown.headers.deprecation).toMatch(/^@\d+$/);
    });
  });

  it.each([
    ['no name', { id: 6000 }],
    ['no id', { name: 'Rex' }],
    ['a string id', { id: '6000', name: 'Rex' }],
    ['an empty name', { id: 6000, name: '  ' }],
    ['a status outside the enum', { id: 6000, name: 'Rex', status: 'adopted' }],
    ['an array', [{ id: 6000, name: 'Rex' }]],
  ])('refuses a pet with %s with 400 VALIDATION_ERROR', async (_label, body) => {
    await withServer({}, async (s) => {
      expect(expectErrorBody(await s.call(PETS, { method: 'POST', body }), 400, PETS).code).toBe(
        'VALIDATION_ERROR',
      );
      expect((await s.call(`${PETS}/6000`)).status).toBe(404);
    });
  });

  it('reports several problems together in errors', async () => {
    await withServer({}, async (s) => {
      const body = expectErrorBody(await s.call(PETS, { method: 'POST', body: { status: 'x' } }), 400, PETS);
      expect(body.errors.length).toBeGreaterThanOrEqual(3);
    });
  });

  it('refuses an id that exists with 409 CONFLICT and keeps the first pet', async () => {
    await withServer({}, async (s) => {
      const before = (await s.call(`${PETS}/3`)).json;
      const answer = await s.call(PETS, { method: 'POST', body: { id: 3, name: 'Impostor' } });
      expect(expectErrorBody(answer, 409, PETS).code).toBe('CONFLICT');
      expect((await s.call(`${PETS}/3`)).json).toEqual(before);
    });
  });

  it('answers 404 for an unknown pet and 400 for an id that is not a positive integer', async () => {
    await withServer({}, async (s) => {
      expect(expectErrorBody(await s.call(`${PETS}/99999`), 404, `${PETS}/99999`).code).toBe('NOT_FOUND');
      for (const id of ['abc', '1.5', '-1', '0', '%zz']) {
        expectErrorBody(await s.call(`${PETS}/${id}`), 400, `${PETS}/${id}`);
      }
    });
  });
});

// 200 requests at once: well under a second idle; 20 s failed at load 35. Only a hang outlasts this.
describe('concurrent POST /pets (issue 7)', { timeout: 300_000 }, () => {
  it('keeps every one of 200 pets created at once', async () => {
    await withServer({ rateLimit: null }, async (s) => {
      const ids = Array.from({ length: 200 }, (_, i) => 10_000 + i);
      const created = await Promise.all(
        ids.map((id) => s.call(PETS, { method: 'POST', body: { id, name: `pet ${id}` } })),
      );
      expect(created.map((a) => a.status)).toEqual(ids.map(() => 201));
      const shown = await Promise.all(ids.map((id) => s.call(`${PETS}/${id}`)));
      expect(shown.map((a) => (a.json as Pet).name)).toEqual(ids.map((id) => `pet ${id}`));
      const listed = (await s.call(`${PETS}?limit=100&after=9999`)).json as Pet[];
      expect(listed.map((p) => p.id)).toEqual(ids.slice(0, 100));
    });
  });

  it('accepts 50 concurrent duplicates of one id exactly once', async () => {
    await withServer({ rateLimit: null }, async (s) => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          s.call(PETS, { method: 'POST', body: { id: 777_777, name: `twin ${i}` } }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((st) => st === 201)).toHaveLength(1);
      expect(statuses.filter((st) => st === 409)).toHaveLength(49);
      const winner = answers.findIndex((a) => a.status === 201);
      expect((await s.call(`${PETS}/777777`)).json).toMatchObject({ name: `twin ${winner}` });
    });
  });
});
