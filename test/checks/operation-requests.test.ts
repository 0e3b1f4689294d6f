import { describe, expect, it } from 'vitest';
import { requestFor } from '../../src/checks/operation-requests.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { operations } from '../../src/contract/index.ts';

const config = {
  credentials: { clientId: 'id', clientSecret: 'secret', apiKeyId: 'k', apiKeySecret: 's' },
} as TargetConfig;

const showPet = () => {
  const op = operations().find((o) => o.operationId === 'showPetById');
  if (!op) throw new Error('showPetById is not in schemas/');
  return op;
};

describe('requestFor fills path templates through the one path filler', () => {
  it('a given path parameter is URL-encoded into the client-relative path', () => {
    expect(requestFor(showPet(), config, 'none', { petId: 'a b' }).path).toBe('pets/a%20b');
  });

  // Would fail if a second filler that makes up '1' for a missing parameter came back.
  it('a missing path parameter is an error naming it, not a made-up id', () => {
    expect(() => requestFor(showPet(), config, 'none')).toThrow('showPetById needs the path parameter petId');
  });

  it('an operation without path parameters loses only the leading slash', () => {
    const op = operations().find((o) => o.operationId === 'listCustomers');
    expect(op && requestFor(op, config, 'apiKey').path).toBe('v1/customers');
  });
});
