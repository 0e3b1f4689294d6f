// schemas/ tightened against the spec, one test per fix: each shows a value the spec rules out
// that the document used to accept (and a value it allows that stays accepted).
import { describe, expect, it } from 'vitest';
import { validateComponent, validateErrorBody, validateResponse } from '../../src/contract/index.ts';
import { honours, requestSchemas } from '../../src/generate/schema.ts';

const pagedEnvelope = (body: unknown) => validateComponent('main', 'PagedEnvelope', body);

const parameter = (operationId: string, name: string) => {
  const found = requestSchemas(operationId).parameters.find((p) => p.name === name);
  if (!found) throw new Error(`${operationId} has no parameter ${name}`);
  return found.schema;
};

const pagination = (overrides: Record<string, number>) => ({
  pagination: {
    total_items: 137,
    showing_items: 50,
    total_pages: 3,
    current_page: 1,
    previous_page: 1,
    next_page: 2,
    ...overrides,
  },
  data: [],
  extra: {},
});

const errorBody = (status_code: number) => ({
  code: 'X',
  message: 'm',
  status_code,
  timestamp: '2026-01-01T00:00:00Z',
  path: '/api/v1/customers',
  handled: true,
});

describe('schemas/ follow the spec where they were looser', () => {
  it('page starts at 1 (pages are counted from the first page, 1): page=0 is not a page', () => {
    const page = parameter('listCustomers', 'page');
    expect(honours(page, 0)).toBe(false);
    expect(honours(page, -1)).toBe(false);
    expect(honours(page, 1)).toBe(true);
    // No maximum: a page beyond the last is valid input, answered 422 by the spec.
    expect(honours(page, 1_000_000)).toBe(true);
  });

  it('limit is a count from 1 to 100 (maximum 100; a count below 1 is no count)', () => {
    const limit = parameter('listPets', 'limit');
    expect([0, 1, 100, 101].map((n) => honours(limit, n))).toEqual([false, true, true, false]);
  });

  it('pagination counts are never negative and current/previous pages start at 1', () => {
    expect(pagedEnvelope(pagination({})).valid).toBe(true);
    for (const [field, value] of [
      ['total_items', -1],
      ['showing_items', -1],
      ['total_pages', -1],
      ['current_page', 0],
      ['previous_page', 0],
      ['next_page', -1],
    ] as const) {
      expect(pagedEnvelope(pagination({ [field]: value })).valid, `${field} ${value}`).toBe(false);
    }
    // An empty collection may say total_pages 0 (not shown): still valid.
    expect(
      pagedEnvelope(pagination({ total_items: 0, showing_items: 0, total_pages: 0, next_page: 0 })).valid,
    ).toBe(true);
  });

  it('an error body states an error status (4xx or 5xx)', () => {
    expect(validateErrorBody(errorBody(422)).valid).toBe(true);
    expect(validateErrorBody(errorBody(503)).valid).toBe(true);
    expect(validateErrorBody(errorBody(200)).valid).toBe(false);
    expect(validateErrorBody(errorBody(600)).valid).toBe(false);
  });

  it('an access token is never empty', () => {
    expect(validateResponse('createToken', 200, { access_token: 'abc' }).valid).toBe(true);
    expect(validateResponse('createToken', 200, { access_token: '' }).valid).toBe(false);
  });
});

describe('and stay open where the spec is silent', () => {
  it('a pet id and name: any int64 and any string (the spec shows no bounds)', () => {
    const pet = requestSchemas('createPets').body?.schema ?? {};
    expect(honours(pet, { id: 0, name: '' })).toBe(true);
    expect(honours(pet, { id: 1, name: 'Rex', extra: true })).toBe(true);
    expect(honours(pet, { id: 1 })).toBe(false);
  });

  it('the token request allows fields beyond client_id and client_secret (not forbidden)', () => {
    const body = requestSchemas('createToken').body?.schema ?? {};
    expect(honours(body, { client_id: 'a', client_secret: 'b', scope: 'x' })).toBe(true);
    expect(honours(body, { client_id: 'a' })).toBe(false);
  });
});
