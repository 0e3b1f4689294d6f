import { expect, it } from 'vitest';
import { mapConcurrent } from '../../src/checks/concurrency.ts';

it('keeps the order of the items and never runs more than the limit at once', async () => {
  let running = 0;
  let most = 0;
  const results = await mapConcurrent([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, n));
    running--;
    return n * 10;
  });
  expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
  expect(most).toBe(3);
});

it('passes a failure on', async () => {
  await expect(
    mapConcurrent([1, 2], 2, async (n) => (n === 2 ? Promise.reject(new Error('no')) : n)),
  ).rejects.toThrow('no');
});

it('handles no items', async () => {
  expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
});
