// The pets: the seeded ones plus those created through POST /pets, listed in id order (highest
// first under pet-ids=int64). Keyed by the exact id: an int64 beyond 2^53 is a bigint.
import { type Pet, type PetId, seededPets } from './data.ts';

const keyOf = (id: PetId) => BigInt(id);

/** Ids beyond the safe range, seeded under pet-ids=int64 (the edges a double cannot hold). */
const INT64_EDGE_PETS: readonly Readonly<Pet>[] = (
  [
    { id: 2n ** 53n + 1n, name: 'Beyond a double', status: 'available' },
    { id: 2n ** 63n - 1n, name: 'Int64 max', status: 'pending' },
    { id: -(2n ** 63n), name: 'Int64 min', tag: 'edge', status: 'sold' },
  ] satisfies Pet[]
).map((pet) => Object.freeze(pet));

export class PetStore {
  #pets = new Map<bigint, Readonly<Pet>>();
  #sorted: readonly { key: bigint; pet: Readonly<Pet> }[] | undefined;
  #seeded = false;
  readonly #seed: number;
  readonly #count: number;
  readonly #int64: boolean;

  constructor(seed: number, count: number, int64 = false) {
    this.#seed = seed;
    this.#count = count;
    this.#int64 = int64;
  }

  // Seeded lazily: a server that never serves a pet never builds them.
  #ensure(): Map<bigint, Readonly<Pet>> {
    if (!this.#seeded) {
      this.#seeded = true;
      const edges = this.#int64 ? INT64_EDGE_PETS : [];
      for (const pet of [...seededPets(this.#seed, this.#count), ...edges]) {
        this.#pets.set(keyOf(pet.id), pet);
      }
    }
    return this.#pets;
  }

  get(id: PetId): Readonly<Pet> | undefined {
    return this.#ensure().get(keyOf(id));
  }

  /** Adds a pet; false when its id is taken (single-threaded: check and insert cannot interleave). */
  add(pet: Pet): boolean {
    const pets = this.#ensure();
    const key = keyOf(pet.id);
    if (pets.has(key)) return false;
    pets.set(key, Object.freeze({ ...pet }));
    this.#sorted = undefined;
    return true;
  }

  /** Stores a pet in place of the one with its id (taken-pet-id=replace). */
  replace(pet: Pet): void {
    this.#ensure().set(keyOf(pet.id), Object.freeze({ ...pet }));
    this.#sorted = undefined;
  }

  /** Whether `a` is listed before `b`. */
  #before(a: bigint, b: bigint): boolean {
    return this.#int64 ? a > b : a < b;
  }

  /** Up to limit pets listed after the pet with id `after` (from the first without it), and whether more follow. */
  list(limit: number, after?: PetId): { pets: readonly Readonly<Pet>[]; more: boolean } {
    const pets = this.#ensure();
    this.#sorted ??= [...pets]
      .map(([key, pet]) => ({ key, pet }))
      .sort((x, y) => (x.key === y.key ? 0 : this.#before(x.key, y.key) ? -1 : 1));
    const sorted = this.#sorted;
    let start = 0;
    if (after !== undefined) {
      const cursor = keyOf(after);
      // Binary search: the first pet listed after the cursor.
      let hi = sorted.length;
      while (start < hi) {
        const mid = (start + hi) >>> 1;
        const key = sorted[mid]?.key;
        if (key !== undefined && !this.#before(cursor, key)) start = mid + 1;
        else hi = mid;
      }
    }
    return {
      pets: sorted.slice(start, start + limit).map((x) => x.pet),
      more: start + limit < sorted.length,
    };
  }

  reset(): void {
    this.#pets.clear();
    this.#sorted = undefined;
    this.#seeded = false;
  }
}
