// Where a pooled percentile can lie. k6 interpolates between the two closest ranks, so the union's
// p95 can exceed the largest runner's p95 (or fall below the smallest) by a fraction of a step;
// what holds exactly is the bracket of ranks: the union's value lies between the smallest runner's
// lower-rank value and the largest runner's upper-rank value (counting ranks below and above).

/** The two sorted values k6's percentile interpolates between. */
export function rankBracket(values: number[], p: number): { lower: number; upper: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  return { lower: sorted[Math.floor(rank)] as number, upper: sorted[Math.ceil(rank)] as number };
}

/** The range every pooled percentile of these shares lies in, whatever their sizes. */
export function pooledPercentileRange(shares: number[][], p: number): { min: number; max: number } {
  const brackets = shares.map((s) => rankBracket(s, p));
  return {
    min: Math.min(...brackets.map((b) => b.lower)),
    max: Math.max(...brackets.map((b) => b.upper)),
  };
}
