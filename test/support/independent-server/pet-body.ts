// Reads a Pet from a request body (spec: Pet; POST /pets "id and name required"). The id is an
// int64, so it is taken from the body's own text: JSON.parse would round ids beyond 2^53 and a
// pet would read back with another id. Unknown fields are ignored (the spec lists Pet's fields and
// says nothing of others).
export interface Pet {
  /** Canonical decimal text of the int64 id. */
  id: string;
  name: string;
  tag?: string;
  status?: 'available' | 'pending' | 'sold';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const STATUSES = new Set(['available', 'pending', 'sold']);

/** The raw text of each value of a top-level JSON object, by key (the last one wins, as JSON.parse). */
export function topLevelRawValues(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = text.indexOf('{');
  if (i < 0) return out;
  i += 1;
  const skipWs = () => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
  };
  const readString = (): string => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  while (i < text.length) {
    skipWs();
    if (text[i] !== '"') break;
    const key = readString();
    skipWs();
    if (text[i] !== ':') break;
    i += 1;
    skipWs();
    const start = i;
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        readString();
        continue;
      }
      if (c === '{' || c === '[') depth += 1;
      else if (c === '}' || c === ']') {
        if (depth === 0) break;
        depth -= 1;
      } else if (c === ',' && depth === 0) break;
      i += 1;
    }
    out.set(key, text.slice(start, i).trim());
    if (text[i] === ',') i += 1;
    else break;
  }
  return out;
}

export type PetRead = { ok: true; pet: Pet } | { ok: false; problems: string[] };

export function readPet(value: unknown, text: string, bounds: 'none' | 'typical' = 'none'): PetRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problems: ['the body must be a JSON object (a Pet)'] };
  }
  const body = value as Record<string, unknown>;
  const problems: string[] = [];
  let id: string | undefined;
  const rawId = topLevelRawValues(text).get('id');
  if (!('id' in body)) problems.push('id is required');
  else if (typeof body.id !== 'number' || rawId === undefined || !/^-?\d+$/.test(rawId)) {
    problems.push('id must be an integer');
  } else {
    const n = BigInt(rawId);
    if (n < INT64_MIN || n > INT64_MAX) problems.push('id must be a 64-bit integer');
    else id = n.toString();
  }
  if (!('name' in body)) problems.push('name is required');
  else if (typeof body.name !== 'string') problems.push('name must be a string');
  if ('tag' in body && typeof body.tag !== 'string') problems.push('tag must be a string');
  if ('status' in body && (typeof body.status !== 'string' || !STATUSES.has(body.status))) {
    problems.push('status must be one of available, pending, sold');
  }
  if (bounds === 'typical') {
    if (id !== undefined && BigInt(id) <= 0n) problems.push('id must be positive');
    if (typeof body.name === 'string' && (body.name.trim() === '' || body.name.length > 100)) {
      problems.push('name must have 1 to 100 characters');
    }
  }
  if (problems.length > 0 || id === undefined) return { ok: false, problems };
  const pet: Pet = { id, name: body.name as string };
  if (typeof body.tag === 'string') pet.tag = body.tag;
  if (typeof body.status === 'string') pet.status = body.status as Pet['status'];
  return { ok: true, pet };
}

/** A Pet as JSON, its id written as the exact integer it was given. */
export function petJson(pet: Pet, extraFields = false): string {
  const rest: Record<string, unknown> = { name: pet.name };
  if (extraFields) rest.created_at = '2026-01-01T00:00:00Z';
  if (pet.tag !== undefined) rest.tag = pet.tag;
  if (pet.status !== undefined) rest.status = pet.status;
  return `{"id":${pet.id},${JSON.stringify(rest).slice(1)}`;
}
