// Independent requests sent together, but never more than a few at once: a far target costs a
// couple of round trips, and a staging environment is not hit with a burst no user would send.
export const POLITE_CONCURRENCY = 8;

/** fn over every item, at most `limit` at a time; results in the items' order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
