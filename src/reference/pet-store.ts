// The pets: the seeded ones plus those created through POST /pets, listed in id order.
import { type Pet, seededPets } from './data.ts';

export class PetStore {
  #pets = new Map<number, Readonly<Pet>>();
  #sorted: readonly Readonly<Pet>[] | undefined;
  #seeded = false;
  readonly #seed: number;
  readonly #count: number;

  constructor(seed: number, count: number) {
    this.#seed = seed;
    this.#count = count;
  }

  // Seeded lazily: a server that never serves a pet never builds them.
  #ensure(): Map<number, Readonly<Pet>> {
    if (!this.#seeded) {
      this.#seeded = true;
      for (const pet of seededPets(this.#seed, this.#count)) this.#pets.set(pet.id, pet);
    }
    return this.#pets;
  }

  get(id: number): Readonly<Pet> | undefined {
    return this.#ensure().get(id);
  }

  /** Adds a pet; false when its id is taken (single-threaded: check and insert cannot interleave). */
  add(pet: Pet): boolean {
    const pets = this.#ensure();
    if (pets.has(pet.id)) return false;
    pets.set(pet.id, Object.freeze({ ...pet }));
    this.#sorted = undefined;
    return true;
  }

  /** Up to limit pets with ids above `after`, in id order, and whether more follow. */
  list(limit: number, after = 0): { pets: readonly Readonly<Pet>[]; more: boolean } {
    const pets = this.#ensure();
    this.#sorted ??= [...pets.values()].sort((a, b) => a.id - b.id);
    const sorted = this.#sorted;
    let start = 0;
    if (after > 0) {
      // Binary search: the first pet whose id is above the cursor.
      let hi = sorted.length;
      while (start < hi) {
        const mid = (start + hi) >>> 1;
        if ((sorted[mid]?.id ?? 0) <= after) start = mid + 1;
        else hi = mid;
      }
    }
    return { pets: sorted.slice(start, start + limit), more: start + limit < sorted.length };
  }

  reset(): void {
    this.#pets.clear();
    this.#sorted = undefined;
    this.#seeded = false;
  }
}
