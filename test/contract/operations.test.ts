// The operation index mirrors the OpenAPI documents: every shown route, its security and its flags.
import { describe, expect, it } from 'vitest';
import { buildOperationUrlPath, findOperation, operations } from '../../src/contract/index.ts';

describe('operation index', () => {
  it('lists every route the spec shows, once, with its service', () => {
    const seen = operations().map((op) => `${op.service} ${op.method.toUpperCase()} ${op.path}`);
    expect(seen.sort()).toEqual(
      [
        'main GET /v1/customers',
        'main GET /v1/feature-flags',
        'main GET /v1/user/me',
        'main POST /v1/auth/token',
        'petstore GET /pets',
        'petstore GET /pets/{petId}',
        'petstore POST /pets',
      ].sort(),
    );
  });

  it('carries the security each route allows', () => {
    expect(findOperation('createToken').security).toEqual([]);
    expect(findOperation('listCustomers').security.sort()).toEqual(['apiKey', 'bearer']);
    expect(findOperation('getCurrentUser').security).toEqual(['bearer']);
    expect(findOperation('listFeatureFlags').security).toEqual(['bearer']);
  });

  it('marks only showPetById deprecated and createPets as needing a body', () => {
    expect(
      operations()
        .filter((op) => op.deprecated)
        .map((op) => op.operationId),
    ).toEqual(['showPetById']);
    expect(findOperation('createPets').requestBodyRequired).toBe(true);
    expect(findOperation('listPets').parameters.map((p) => p.name)).toContain('limit');
  });

  it('refuses an unknown operation id with its name', () => {
    expect(() => findOperation('deleteEverything')).toThrow(/deleteEverything/);
  });

  it('fills path templates, encoding each parameter', () => {
    expect(buildOperationUrlPath(findOperation('showPetById'), { petId: 'a/b c' })).toBe('pets/a%2Fb%20c');
    expect(buildOperationUrlPath(findOperation('listCustomers'))).toBe('v1/customers');
    expect(() => buildOperationUrlPath(findOperation('showPetById'))).toThrow(/petId/);
  });
});
