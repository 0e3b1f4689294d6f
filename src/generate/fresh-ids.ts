// Fresh pet ids, filled in right before a request is sent: every send (a shrinking step too) gets
// an id no pet has, so a replayed create never meets the pet its first try made. Derived from the
// run's seed, so a replay against a fresh server sends the very same ids.

import type { GeneratedRequest } from './request.ts';
import { FRESH_ID } from './semantics.ts';

const MARK = String(FRESH_ID);

export function freshIds(seed: number): () => number {
  // Far above seeded data (ids 1..n) and below 2^53; one block of a million ids per seed.
  let next = 9_000_000_000_000 + (Math.abs(seed) % 1_000_000) * 1_000_000;
  return () => next++;
}

/** The request with every fresh-id mark replaced (in the body's text, so ["7..7"] is one too). */
export function withFreshIds(req: GeneratedRequest, nextId: () => number): GeneratedRequest {
  const fill = (text: string) => (text.includes(MARK) ? text.split(MARK).join(String(nextId())) : text);
  const pathParams = Object.fromEntries(Object.entries(req.pathParams).map(([k, v]) => [k, fill(v)]));
  if (!req.body) return { ...req, pathParams };
  if (req.body.kind === 'raw')
    return { ...req, pathParams, body: { ...req.body, text: fill(req.body.text) } };
  const text = JSON.stringify(req.body.value);
  return text === undefined || !text.includes(MARK)
    ? { ...req, pathParams }
    : { ...req, pathParams, body: { kind: 'json', value: JSON.parse(fill(text)) } };
}
