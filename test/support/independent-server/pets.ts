// The demo pet interface (spec: Demo pet interface), relative to {petstore_base_url}. No
// authentication (spec: "Authentication of the demo pet operations: not shown"), and errors in a
// plain shape of this server's own (spec: "Error responses of the demo pet operations: not shown").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { queryOf, readJsonBody, sendJson, sendText } from './http-io.ts';
import type { IndependentOptions } from './options.ts';
import { type Pet, petJson, readPet } from './pet-body.ts';

export class PetStore {
  private readonly pets = new Map<string, Pet>();

  private readonly options: IndependentOptions;
  /** Whether a request carries a valid API key (set by the server when pets need one). */
  keyOk: (req: IncomingMessage) => boolean = () => true;

  constructor(options: IndependentOptions) {
    this.options = options;
    const statuses = ['available', 'pending', 'sold'] as const;
    for (let i = 1; i <= options.petCount; i += 1) {
      const pet: Pet = { id: String(i), name: `Pet ${i}` };
      if (i % 3 !== 0) pet.tag = i % 2 === 0 ? 'dog' : 'cat';
      if (i % 4 !== 0) pet.status = statuses[i % 3];
      this.pets.set(pet.id, pet);
    }
  }

  private fail(
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ): void {
    if (this.options.petErrors === 'text') {
      res.setHeader('x-pet-error', 'true');
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      sendText(res, status, `${status} ${message}\n`);
    } else {
      sendJson(res, status, { error: message, status }, headers);
    }
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    if (this.options.petAuth === 'api-key' && !this.keyOk(req)) {
      this.fail(res, 401, 'an API key is required');
      return;
    }
    if (path === '/pets') {
      if (req.method === 'GET') return this.list(res, url);
      if (req.method === 'POST') return this.create(req, res);
      return this.fail(res, 405, 'method not allowed', { allow: 'GET, POST' });
    }
    const one = /^\/pets\/([^/]+)$/.exec(path);
    if (one?.[1] !== undefined) {
      if (req.method !== 'GET') return this.fail(res, 405, 'method not allowed', { allow: 'GET' });
      return this.show(res, one[1]);
    }
    return this.fail(res, 404, 'no such route');
  }

  private list(res: ServerResponse, url: URL): void {
    const values = queryOf(url).get('limit');
    let limit = 100;
    if (values !== undefined) {
      if (values.length !== 1 || !/^\d+$/.test(values[0] ?? '')) {
        this.fail(res, 400, 'limit must be a whole number from 0 to 100');
        return;
      }
      const n = BigInt(values[0] ?? '0');
      if (n > 100n && this.options.limitAbove100 === 'refuse') {
        this.fail(res, 400, 'limit is at most 100');
        return;
      }
      limit = n > 100n ? 100 : Number(n);
    }
    const page = [...this.pets.values()].slice(0, limit);
    const more = this.pets.size > limit;
    // "a paged array": the array is the page; the header says whether more exist.
    const text = `[${page.map((p) => petJson(p, this.options.extraFields)).join(',')}]`;
    sendJson(res, 200, text, { 'x-total-count': String(this.pets.size), 'x-has-more': String(more) });
  }

  private async create(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonBody(req);
    if (!body.ok) return this.fail(res, 400, body.reason);
    const read = readPet(body.value, body.text, this.options.petBounds);
    if (!read.ok) return this.fail(res, 400, read.problems.join('; '));
    if (this.options.duplicatePet === 'conflict' && this.pets.has(read.pet.id)) {
      this.fail(res, 409, `a pet with id ${read.pet.id} exists`);
      return;
    }
    this.pets.set(read.pet.id, read.pet);
    if (this.options.petCreatedBody === 'created') {
      sendJson(res, 201, petJson(read.pet, this.options.extraFields), { location: `pets/${read.pet.id}` });
    } else {
      res.writeHead(201, { location: `pets/${read.pet.id}`, 'content-length': '0' });
      res.end();
    }
  }

  private show(res: ServerResponse, rawId: string): void {
    let key: string | undefined;
    try {
      const decoded = decodeURIComponent(rawId);
      if (/^-?\d+$/.test(decoded)) key = BigInt(decoded).toString();
    } catch {
      key = undefined;
    }
    const deprecation =
      this.options.deprecationHeader === 'date' ? { deprecation: '@1767225600' } : { deprecation: 'true' };
    const pet = key === undefined ? undefined : this.pets.get(key);
    if (pet) sendJson(res, 200, petJson(pet, this.options.extraFields), deprecation);
    else this.fail(res, 404, 'pet not found', deprecation);
  }
}
