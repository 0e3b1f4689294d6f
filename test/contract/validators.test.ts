// Validators compiled from schemas/: strict where the spec shows a shape, open where it does not.
import { describe, expect, it } from 'vitest';
import {
  responseKeyFor,
  validateComponent,
  validateErrorBody,
  validatePet,
  validateResponse,
} from '../../src/contract/index.ts';

const pagedEnvelope = (body: unknown) => validateComponent('main', 'PagedEnvelope', body);

const errorBody = {
  id: 'req-1',
  code: 'VALIDATION_ERROR',
  message: 'page 9 is greater than the maximum page 3',
  status_code: 422,
  timestamp: '2026-11-23T10:00:00.000Z',
  path: '/api/v1/customers',
  handled: true,
  errors: [],
};

const envelope = {
  pagination: {
    total_items: 137,
    showing_items: 50,
    total_pages: 3,
    current_page: 1,
    previous_page: 1,
    next_page: 2,
  },
  data: [{ id: 1, anything: 'open' }],
  extra: {},
};

describe('error body', () => {
  it('accepts the spec table, with id and errors optional', () => {
    expect(validateErrorBody(errorBody)).toEqual({ valid: true });
    const { id: _id, errors: _errors, ...minimal } = errorBody;
    expect(validateErrorBody(minimal)).toEqual({ valid: true });
  });

  it('names each broken field', () => {
    const { message: _m, ...noMessage } = errorBody;
    expect(validateErrorBody(noMessage)).toEqual({ valid: false, errors: ['/message is required'] });
    const wrong = validateErrorBody({
      ...errorBody,
      status_code: '422',
      timestamp: 'yesterday',
      errors: [1],
    });
    expect(wrong.valid).toBe(false);
    const text = wrong.valid ? '' : wrong.errors.join('\n');
    expect(text).toMatch(/\/status_code must be integer/);
    expect(text).toMatch(/\/timestamp must be a date-time \(got "yesterday"\)/);
    expect(text).toMatch(/\/errors\/0 must be string/);
  });
});

describe('paged envelope and responses', () => {
  it('accepts the envelope and keeps customer items open', () => {
    expect(pagedEnvelope(envelope)).toEqual({ valid: true });
    expect(validateResponse('listCustomers', 200, envelope)).toEqual({ valid: true });
  });

  it('refuses pagination numbers given as strings and a missing extra', () => {
    const { extra: _extra, ...noExtra } = envelope;
    expect(pagedEnvelope(noExtra).valid).toBe(false);
    const asStrings = { ...envelope, pagination: { ...envelope.pagination, total_items: '137' } };
    expect(validateResponse('listCustomers', 200, asStrings).valid).toBe(false);
  });

  it('validates an error status against the documented error body', () => {
    expect(validateResponse('listCustomers', 422, errorBody)).toEqual({ valid: true });
    expect(validateResponse('listCustomers', 422, { message: 'x' }).valid).toBe(false);
  });

  it('demands access_token from the token route', () => {
    expect(validateResponse('createToken', 200, { access_token: 't', token_type: 'Bearer' })).toEqual({
      valid: true,
    });
    expect(validateResponse('createToken', 200, { token: 't' }).valid).toBe(false);
  });

  it('prefers the exact status, then its range, then default', () => {
    expect(responseKeyFor(['200', '4XX', 'default'], 200)).toBe('200');
    expect(responseKeyFor(['200', '4XX', 'default'], 404)).toBe('4XX');
    expect(responseKeyFor(['200', '4XX', 'default'], 503)).toBe('default');
    expect(responseKeyFor(['200'], 503)).toBeUndefined();
  });
});

describe('pet', () => {
  it('requires an int64 id and a name, keeps status in the enum', () => {
    expect(validatePet({ id: 7, name: 'Kit', tag: 'cat', status: 'sold' })).toEqual({ valid: true });
    expect(validatePet({ id: '7', name: 'Kit' }).valid).toBe(false);
    expect(validatePet({ id: 7 }).valid).toBe(false);
    const adopted = validatePet({ id: 7, name: 'Kit', status: 'adopted' });
    expect(adopted.valid ? '' : adopted.errors.join()).toMatch(/available, pending, sold/);
  });

  it('accepts any body for the 201 of createPets, where the spec shows none', () => {
    expect(validateResponse('createPets', 201, undefined)).toEqual({ valid: true });
  });
});
