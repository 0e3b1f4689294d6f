// The demo pet interface under /petstore/v1. The spec shows no authentication and no error
// answers for it: no credentials are asked, and errors use the main service's error body.
import { ApiError, badRequest, simulatedCrash } from '../api-error.ts';
import { type Handler, quoted, type RequestContext, readNotation, singleParam } from '../context.ts';
import { PET_STATUSES, type Pet, type PetId } from '../data.ts';
import type { ActiveFaults } from '../faults.ts';
import { limitAnonymous } from '../guards.ts';
import { inInt64 } from '../int64-json.ts';
import { holdsLoneSurrogate, isObject, readJsonBody } from '../request-body.ts';

export const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 100;
// RFC 9745: the moment the operation was deprecated, as a structured-field date.
const DEPRECATED_SINCE = Date.UTC(2026, 0, 1) / 1000;
const SUNSET = new Date(Date.UTC(2026, 11, 31, 23, 59, 59)).toUTCString();
const MAX_NAME_LENGTH = 200;

function positiveInteger(name: string, raw: string): number {
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw badRequest(`${name} must be an integer of at least 1, got ${quoted(raw)}`);
  }
  return value;
}

/** A pet id under pet-ids=int64: any int64, exactly (a bigint beyond 2^53). */
function int64Id(name: string, raw: string): PetId {
  const value = /^-?\d{1,19}$/.test(raw) ? BigInt(raw) : undefined;
  if (value === undefined || !inInt64(value)) {
    throw badRequest(`${name} must be an integer from -2^63 to 2^63-1, got ${quoted(raw)}`);
  }
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

/** A pet id read from the path or the cursor, as the pet-ids choice reads it. */
const petIdOf = (ctx: RequestContext, name: string, raw: string): PetId =>
  ctx.state.options.choices['pet-ids'] === 'int64' ? int64Id(name, raw) : positiveInteger(name, raw);

function listLimit(ctx: RequestContext): number {
  const { faults, options } = ctx.state;
  const { choices } = options;
  const given = singleParam(ctx, 'limit');
  const raw = given === '' && choices['empty-query-value'] === 'absent' ? undefined : given;
  const byDefault = faults.has('pets-default-limit-10') ? 10 : DEFAULT_LIMIT;
  if (raw === undefined || faults.has('pets-limit-ignored')) return byDefault;
  const read = Number(raw);
  if (faults.has('limit-unsafe-integer-500') && /^\d+$/.test(raw) && !Number.isSafeInteger(read)) {
    throw simulatedCrash();
  }
  // 1e2, 007, 1.0, -0: an integer, written otherwise than plainly.
  if (
    faults.has('limit-number-notation-500') &&
    raw !== '' &&
    Number.isSafeInteger(read) &&
    String(read) !== raw
  ) {
    throw simulatedCrash();
  }
  if (faults.has('pets-limit-not-a-number-accepted') && /^[a-z]+$/i.test(raw)) return byDefault;
  if (faults.has('pets-limit-leading-digits-read') && /^\d+[a-z]+$/i.test(raw))
    return Number.parseInt(raw, 10);
  // The choices the spec leaves open (src/reference/options.ts): a negative limit refused or read
  // as none, limit=0 refused or answered with no pets, a limit above 100 refused or clamped to 100.
  if (/^-\d+$/.test(raw) && choices['limit-negative'] === 'default') return byDefault;
  const digits = readNotation(ctx, raw);
  if (/^0+$/.test(digits) && choices['limit-zero'] === 'empty') return 0;
  const limit = positiveInteger('limit', digits);
  if (faults.has('pets-limit-100-lists-none') && limit === MAX_LIMIT) return 0;
  if (limit > MAX_LIMIT && !faults.has('pets-limit-over-100')) {
    if (choices['limit-above-100'] === 'clamp') return MAX_LIMIT;
    throw badRequest(`limit must be at most ${MAX_LIMIT}, got ${limit}`);
  }
  return limit;
}

export const listPets: Handler = (ctx) => {
  limitAnonymous(ctx);
  const { faults } = ctx.state;
  const limit = listLimit(ctx);
  const afterRaw = singleParam(ctx, 'after');
  const after =
    afterRaw === undefined || faults.has('pets-next-link-repeats-page')
      ? undefined
      : petIdOf(ctx, 'after', afterRaw);
  const { pets, more } = faults.has('pets-list-empty')
    ? { pets: [], more: false }
    : ctx.state.pets.list(limit, after);
  const headers: Record<string, string> = {};
  const lastId = pets.at(-1)?.id;
  // A link to the next page, as the demo's x-next header describes.
  if (more && lastId !== undefined) {
    headers['x-next'] = `${ctx.state.origin}/petstore/v1/pets?limit=${limit}&after=${lastId}`;
  }
  return { status: 200, headers, json: pets.map((pet) => ({ ...pet })) };
};

const PET_FIELDS: readonly string[] = ['id', 'name', 'tag', 'status'];

/** Fields of a pet body the spec does not show. */
const unknownFields = (body: Record<string, unknown>) =>
  Object.keys(body).filter((k) => !PET_FIELDS.includes(k));

/** Every problem of a pet body (several are reported together in `errors`). */
function problemsOf(
  body: unknown,
  nameRequired: boolean,
  loose: {
    anyStatus: boolean;
    noTag: boolean;
    unknownRefused: boolean;
    textBounded: boolean;
    noId?: boolean;
    int64: boolean;
  },
): string[] {
  if (!isObject(body)) return ['the body must be a JSON object (a Pet)'];
  const problems: string[] = [];
  const unknown = loose.unknownRefused ? unknownFields(body) : [];
  if (unknown.length > 0) problems.push(`unknown field ${unknown.map(quoted).join(', ')}`);
  const { id, name, tag, status } = body;
  const bounded = loose.textBounded;
  if (id === undefined) {
    if (!loose.noId) problems.push('id is required');
  } else if (loose.int64) {
    const exact = typeof id === 'bigint' || (typeof id === 'number' && Number.isSafeInteger(id));
    if (!exact || !inInt64(BigInt(id as number | bigint)))
      problems.push('id must be an integer from -2^63 to 2^63-1');
  } else if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    problems.push(`id must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
  }
  if (name === undefined) {
    if (nameRequired) problems.push('name is required');
  } else if (typeof name !== 'string' || (bounded && (name.trim() === '' || name.length > MAX_NAME_LENGTH))) {
    problems.push(`name must be a non-empty string of at most ${MAX_NAME_LENGTH} characters`);
  }
  if (tag !== undefined && loose.noTag) problems.push('tag is not supported');
  else if (tag !== undefined && (typeof tag !== 'string' || (bounded && tag.length > MAX_NAME_LENGTH))) {
    problems.push(`tag must be a string of at most ${MAX_NAME_LENGTH} characters`);
  }
  const statusOk = loose.anyStatus
    ? typeof status === 'string'
    : (PET_STATUSES as readonly unknown[]).includes(status);
  if (status !== undefined && !statusOk) {
    problems.push(`status must be one of ${PET_STATUSES.join(', ')}`);
  }
  return problems;
}

/** The faults that crash on what a schema-based generator sends at the edges. */
function crashOnEdges(faults: ActiveFaults, body: Record<string, unknown>): void {
  const texts = [body.name, body.tag].filter((t): t is string => typeof t === 'string');
  const crashes =
    (faults.has('pet-unknown-field-500') && unknownFields(body).length > 0) ||
    (faults.has('pet-id-unsafe-integer-500') &&
      Number.isInteger(body.id) &&
      !Number.isSafeInteger(body.id)) ||
    (faults.has('pet-long-text-500') && texts.some((t) => t.length > 1000)) ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is 0x00-0x7f
    (faults.has('pet-non-ascii-500') && texts.some((t) => /[^\x00-\x7f]/.test(t)));
  if (crashes) throw simulatedCrash();
}

export const createPet: Handler = async (ctx) => {
  limitAnonymous(ctx);
  const { faults, pets, options } = ctx.state;
  const { choices } = options;
  const sent = await readJsonBody(ctx.req, {
    crashOnMalformed: faults.has('malformed-json-500'),
    anyMediaType: choices['request-media-type'] === 'any',
    exactIntegers: choices['pet-ids'] === 'int64',
    crashOnNotUtf8: faults.has('body-not-utf8-500'),
  });
  // The other choice where the spec is silent: an id written as digits ("7") read as the integer.
  const body =
    choices['integer-strings'] === 'read' &&
    isObject(sent) &&
    typeof sent.id === 'string' &&
    /^\d{1,15}$/.test(sent.id)
      ? { ...sent, id: Number(sent.id) }
      : sent;
  if (isObject(body)) crashOnEdges(faults, body);
  if (faults.has('pet-null-body-500') && body === null) throw simulatedCrash();
  if (faults.has('lone-surrogate-500') && holdsLoneSurrogate(body)) throw simulatedCrash();
  // Fault negative-pet-id-500: a negative id crashes the create (a check must not call it a refusal).
  if (faults.has('negative-pet-id-500') && isObject(body) && typeof body.id === 'number' && body.id < 0) {
    throw simulatedCrash();
  }
  const nameless = faults.has('pet-without-name-accepted') || faults.has('nameless-pet-stored');
  const problems = problemsOf(body, !nameless, {
    anyStatus: faults.has('pet-status-outside-enum-stored'),
    noTag: faults.has('pet-tag-refused'),
    unknownRefused: choices['unknown-pet-fields'] === 'refuse',
    textBounded: choices['pet-text'] === 'bounded',
    noId: faults.has('pet-without-id-accepted'),
    int64: choices['pet-ids'] === 'int64',
  });
  if (faults.has('pet-status-required') && isObject(body) && body.status === undefined) {
    problems.push('status is required');
  }
  // Fault negative-pet-id-unreadable: a negative id accepted, though GET /pets/{petId} refuses it.
  if (faults.has('negative-pet-id-unreadable') && isObject(body) && Number.isSafeInteger(body.id)) {
    problems.splice(0, problems.length, ...problems.filter((p) => !p.startsWith('id must be')));
  }
  // Fault refused-pet-stored: a name of another type is refused, yet stored as text.
  if (
    faults.has('refused-pet-stored') &&
    isObject(body) &&
    Number.isSafeInteger(body.id) &&
    (body.id as number) > 0 &&
    body.name !== undefined &&
    typeof body.name !== 'string' &&
    pets.get(body.id as number) === undefined
  ) {
    pets.add({ id: body.id as number, name: String(body.name) });
  }
  // Fault refused-pet-id-reserved: a refused create keeps its id, so later creates of it are refused.
  if (
    faults.has('refused-pet-id-reserved') &&
    problems.length > 0 &&
    isObject(body) &&
    body.id !== undefined
  ) {
    faults.reservedPetIds.add(String(body.id));
  }
  if (problems.length > 0) {
    const [only] = problems;
    throw problems.length === 1 && only
      ? badRequest(only)
      : badRequest(`the pet is not valid (${problems.length} problems, see errors)`, problems);
  }
  const fields = body as Record<string, unknown>;
  // Fault pet-without-id-accepted: a pet without id gets the next free one.
  const id = fields.id ?? Number(pets.list(Number.MAX_SAFE_INTEGER).pets.at(-1)?.id ?? 0) + 1;
  let pet: Pet = { id: id as PetId, name: fields.name as string };
  if (typeof fields.tag === 'string' && !faults.has('pet-tag-dropped')) pet.tag = fields.tag;
  if (faults.has('pet-non-ascii-mangled')) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is 0x00-0x7f
    const ascii = (text: string) => text.replace(/[^\x00-\x7f]/gu, '?');
    pet.name = ascii(pet.name);
    if (pet.tag !== undefined) pet.tag = ascii(pet.tag);
  }
  if (typeof fields.status === 'string') pet.status = fields.status as Pet['status'];
  if (choices['unknown-pet-fields'] === 'store') {
    // Spread, not assigned: a spread defines own fields, so a field named __proto__ stays a field.
    pet = { ...pet, ...Object.fromEntries(unknownFields(fields).map((k) => [k, fields[k]])) };
  }
  // A nameless pet (accepted only under a fault) is not stored: every stored pet has a name.
  const store =
    (typeof fields.name === 'string' || faults.has('nameless-pet-stored')) && !faults.has('created-pet-lost');
  // Fault duplicate-pet-kept: a taken id answered 201 as if created, the pet stored before kept.
  if (faults.has('duplicate-pet-kept') && store && pets.get(pet.id) !== undefined) {
    return { status: 201, headers: { location: `/petstore/v1/pets/${pet.id}` } };
  }
  if (faults.has('refused-pet-id-reserved') && faults.reservedPetIds.has(String(pet.id))) {
    throw new ApiError(409, 'CONFLICT', `a pet with id ${pet.id} already exists`);
  }
  // Fault taken-pet-id-500: a taken id crashes the create instead of being refused or replacing.
  if (faults.has('taken-pet-id-500') && store && pets.get(pet.id) !== undefined) throw simulatedCrash();
  if (store && !pets.add(pet)) {
    // The choice taken-pet-id=replace: the pet sent takes the taken id's place.
    if (choices['taken-pet-id'] === 'replace') pets.replace(pet);
    else {
      // Fault refused-taken-id-replaces-pet: refused, yet the pet sent is stored over the first.
      if (faults.has('refused-taken-id-replaces-pet')) pets.replace(pet);
      throw new ApiError(409, 'CONFLICT', `a pet with id ${pet.id} already exists`);
    }
  }
  const status = 201;
  const headers = { location: `/petstore/v1/pets/${pet.id}` };
  // The spec shows no body for 201; the other-choices server answers the created pet.
  return options.extraFields ? { status, headers, json: pet } : { status, headers };
};

export const showPet: Handler = (ctx) => {
  limitAnonymous(ctx);
  const { faults, pets, options } = ctx.state;
  if (faults.has('pet-id-not-integer-500') && !/^\d+$/.test(ctx.params.petId ?? '')) {
    throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
  }
  // Fault path-not-utf8-500: the path decoded again, without the router's care for bad escapes.
  if (faults.has('path-not-utf8-500')) {
    try {
      decodeURIComponent(ctx.path);
    } catch {
      throw simulatedCrash();
    }
  }
  const id = petIdOf(ctx, 'petId', ctx.params.petId ?? '');
  const pet = pets.get(id);
  if (!pet) {
    throw faults.has('unknown-pet-400')
      ? badRequest(`petId ${id} is not valid`)
      : new ApiError(404, 'NOT_FOUND', `no pet with id ${id}`);
  }
  const headers: Record<string, string> = {
    deprecation: faults.has('deprecation-header-empty') ? '' : `@${DEPRECATED_SINCE}`,
  };
  if (options.extraFields) headers.sunset = SUNSET;
  return { status: 200, headers, json: { ...pet } };
};
