// Deterministic, seeded fake data. Generated on first use and memoised per seed and size: the
// suite starts dozens of servers in one process, and customers and seeded pets never change
// (created pets live in the server's own state), so they are built once.
//
// The en-only faker build loads in a fraction of the full package's time. Its instance is shared,
// so each generator seeds it and runs synchronously: nothing can interleave and shift the sequence.
import { faker } from '@faker-js/faker/locale/en';
import { DEFAULT_USER_ID, PINNED_KEY_USER_ID } from './credentials.ts';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

/** A pet id: a number, or a bigint where it is beyond 2^53 (pet-ids=int64). */
export type PetId = number | bigint;

export interface Pet {
  id: PetId;
  name: string;
  tag?: string;
  status?: PetStatus;
}

type Json = Record<string, unknown>;

export interface Customers {
  /** The records as the server shows them by default. */
  plain: readonly Json[];
  /** The same records with more fields (the extraFields choice). */
  rich: readonly Json[];
}

// Fixed bounds: faker's date helpers otherwise depend on today's date.
const FROM = '2019-01-01T00:00:00.000Z';
const TO = '2026-01-01T00:00:00.000Z';

const memo = new Map<string, unknown>();

function memoised<T>(key: string, build: () => T): T {
  if (!memo.has(key)) memo.set(key, build());
  return memo.get(key) as T;
}

function seeded<T>(seed: number, build: () => T): T {
  faker.seed(seed);
  return build();
}

export function customers(seed: number, count: number): Customers {
  return memoised(`customers:${seed}:${count}`, () =>
    seeded(seed, () => {
      const plain: Json[] = [];
      const rich: Json[] = [];
      for (let i = 1; i <= count; i++) {
        const first = faker.person.firstName();
        const last = faker.person.lastName();
        const record = {
          id: `cus_${String(i).padStart(6, '0')}`,
          name: `${first} ${last}`,
          email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase(),
          country: faker.location.countryCode(),
          created_at: faker.date.between({ from: FROM, to: TO }).toISOString(),
        };
        plain.push(record);
        rich.push({
          ...record,
          phone: faker.phone.number({ style: 'international' }),
          company: faker.company.name(),
          status: faker.helpers.arrayElement(['active', 'inactive']),
          tags: faker.helpers.arrayElements(['vip', 'newsletter', 'b2b', 'trial'], { min: 0, max: 2 }),
          address: { city: faker.location.city(), postal_code: faker.location.zipCode() },
        });
      }
      return { plain, rich };
    }),
  );
}

export interface User {
  plain: Json;
  rich: Json;
}

export function users(seed: number): ReadonlyMap<string, User> {
  return memoised(`users:${seed}`, () =>
    seeded(seed + 1, () => {
      const map = new Map<string, User>();
      for (const [id, role] of [
        [DEFAULT_USER_ID, 'integrator'],
        [PINNED_KEY_USER_ID, 'integrator'],
      ] as const) {
        const first = faker.person.firstName();
        const last = faker.person.lastName();
        const plain = {
          id,
          name: `${first} ${last}`,
          email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase(),
          role,
          created_at: faker.date.between({ from: FROM, to: TO }).toISOString(),
        };
        map.set(id, {
          plain,
          rich: {
            ...plain,
            locale: 'en-GB',
            timezone: faker.location.timeZone(),
            permissions: ['profile:read', 'profile:update', 'users:admin'],
          },
        });
      }
      return map;
    }),
  );
}

/** Seeded pets with ids 1..count, every status in the enum, a tag on about half of them. */
export function seededPets(seed: number, count: number): readonly Readonly<Pet>[] {
  return memoised(`pets:${seed}:${count}`, () =>
    seeded(seed + 2, () =>
      Array.from({ length: count }, (_, i) => {
        const pet: Pet = {
          id: i + 1,
          name: faker.animal.petName(),
          status: faker.helpers.arrayElement(PET_STATUSES),
        };
        if (faker.datatype.boolean()) pet.tag = faker.animal.type();
        return Object.freeze(pet);
      }),
    ),
  );
}
