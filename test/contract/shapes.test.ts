// The suites type what they read with the documents' own shapes: shapes.generated.ts is made from
// schemas/, and no suite or check helper declares one of those shapes again by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shapesSource } from '../../src/contract/shapes.ts';
import { filesMatching } from '../support/sources.ts';

const GENERATED = 'src/contract/shapes.generated.ts';

describe('shapes from schemas/', () => {
  // Would fail if the types were edited by hand or a schema changed without regenerating them.
  it(`${GENERATED} is what the documents make (regenerate: npx tsx src/cli/shapes.ts)`, () => {
    expect(readFileSync(new URL(`../../${GENERATED}`, import.meta.url), 'utf8')).toBe(shapesSource());
  });

  it('holds the shapes the suites read: token, paged envelope, pagination, error body, pet', () => {
    const source = shapesSource();
    for (const name of ['TokenResponse', 'PagedEnvelope', 'Pagination', 'ErrorBody', 'Pet']) {
      expect(source).toMatch(new RegExp(`export interface ${name} \\{`));
    }
    expect(source).toContain("export type PetStatus = 'available' | 'pending' | 'sold';");
  });

  // Would fail if a suite typed one of the documents' shapes by hand again.
  it('no suite declares a shape the documents hold', () => {
    const names = 'TokenResponse|PagedEnvelope|Pagination|ErrorBody|Pet|Pets';
    const shape = new RegExp(`^\\s*(export\\s+)?(interface\\s+(${names})\\b|type\\s+(${names})\\s*=)`, 'm');
    expect(filesMatching(shape, ['suites', 'src/checks'], GENERATED)).toEqual([]);
  });
});
