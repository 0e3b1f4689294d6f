// The faults that only reshape an answer are data (src/reference/reshape.ts), applied once after
// routing: no handler asks for them, and they combine as they did when they were branches.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESHAPING_FAULTS } from '../../src/reference/faults.ts';
import { type Envelope, withServer } from './helpers.ts';

const REFERENCE = join(import.meta.dirname, '../../src/reference');

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [{ file: path, text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('faults as data', () => {
  it('the faults that only reshape an answer are data', () => {
    expect(RESHAPING_FAULTS).toEqual(
      expect.arrayContaining([
        'envelope-missing-extra',
        'pagination-numbers-as-strings',
        'showing-items-off-by-one',
        'total-items-off-by-one',
        'total-pages-off-by-one',
        'current-page-zero-based',
        'previous-page-zero-on-first',
        'next-page-beyond-last',
        'customers-text-content-type',
        'error-missing-message',
        'error-missing-handled',
        'status-code-mismatch',
        'timestamp-not-iso',
        'error-path-wrong',
        'errors-field-not-strings',
        'error-text-plain',
        'token-missing-access-token',
        'user-me-array',
        'flags-html',
        'feature-disabled-403',
        'feature-disabled-wrong-code',
        'feature-disabled-generic-message',
        'session-expired-other-code',
        'pets-wrapped-in-object',
        'pet-id-as-string',
        'pet-status-outside-enum',
        'create-pet-200',
        'no-deprecation-header',
        'page-beyond-last-400',
        'page-beyond-message-without-max',
        'page-beyond-errors-filled',
        'page-beyond-unhandled',
      ]),
    );
  });

  // Would fail if a handler grew a faults.has(...) branch for a fault the table already applies.
  it('no handler of the reference server asks for a reshaping fault', () => {
    const named = sources(REFERENCE)
      .filter(({ file }) => !file.endsWith('faults.ts'))
      .flatMap(({ file, text }) =>
        RESHAPING_FAULTS.filter((name) => text.includes(`has('${name}')`)).map(
          (name) => `${name} in ${file}`,
        ),
      );
    expect(named).toEqual([]);
  });

  it('reshapes combine: numbers as strings and an off-by-one total give the string of the wrong total', async () => {
    await withServer({ faults: ['pagination-numbers-as-strings', 'total-items-off-by-one'] }, async (s) => {
      const { pagination } = (await s.withKey('/api/v1/customers?page=3')).json as Envelope;
      expect(pagination).toMatchObject({ total_items: '138', current_page: '3', next_page: '3' });
    });
  });

  it('a reshape reads the correct answer, so it applies once: the last page with next-page-beyond-last and current-page-zero-based', async () => {
    await withServer({ faults: ['current-page-zero-based', 'next-page-beyond-last'] }, async (s) => {
      const { pagination } = (await s.withKey('/api/v1/customers?page=3')).json as Envelope;
      expect(pagination).toMatchObject({ current_page: 2, next_page: 4, total_pages: 3 });
    });
  });

  it('an error answer of the customers route is not reshaped by the page faults', async () => {
    const pageFaults = RESHAPING_FAULTS.filter(
      (name) => /page|items|envelope|customers/.test(name) && !name.startsWith('page-beyond'),
    );
    await withServer({ faults: pageFaults }, async (s) => {
      const answer = await s.withKey('/api/v1/customers?page=4');
      expect(answer.status).toBe(422);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    });
  });

  it('pet reshapes combine, whatever wraps the list: ids as strings, some status adopted, in an object', async () => {
    await withServer(
      { faults: ['pets-wrapped-in-object', 'pet-id-as-string', 'pet-status-outside-enum'] },
      async (s) => {
        const { pets } = (await s.call('/petstore/v1/pets?limit=10')).json as {
          pets: { id: unknown; status?: unknown }[];
        };
        expect(pets.map((p) => typeof p.id)).toEqual(Array(10).fill('string'));
        expect(pets.filter((p) => Number(p.id) % 5 === 0).map((p) => p.status)).toEqual([
          'adopted',
          'adopted',
        ]);
      },
    );
  });

  it('a disabled feature under three faults: 403, FEATURE_DISABLED, the generic message', async () => {
    const faults = [
      'feature-disabled-403',
      'feature-disabled-wrong-code',
      'feature-disabled-generic-message',
    ];
    await withServer({ faults }, async (s) => {
      s.control.setFeature('reports', false);
      const answer = await s.withKey('/api/v1/reports');
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({
        code: 'FEATURE_DISABLED',
        message: 'Service unavailable',
        status_code: 403,
      });
    });
  });

  it('the 422 beyond the last page under its four faults: 400, no maximum, errors filled, unhandled', async () => {
    const faults = RESHAPING_FAULTS.filter((name) => name.startsWith('page-beyond'));
    await withServer({ faults }, async (s) => {
      const answer = await s.withKey('/api/v1/customers?page=4');
      expect(answer.status).toBe(400);
      const message = 'the requested page is out of range';
      expect(answer.json).toMatchObject({ status_code: 400, message, errors: [message], handled: false });
    });
  });

  it('error body reshapes combine and apply to every error: all of them on a 404', async () => {
    const errorFaults = RESHAPING_FAULTS.filter((name) => /^error|status-code|timestamp/.test(name));
    await withServer({ faults: errorFaults }, async (s) => {
      const answer = await s.call('/api/v1/nothing-here');
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      const body = JSON.parse(answer.text) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'errors', 'id', 'path', 'status_code', 'timestamp']);
      expect(body).toMatchObject({ code: 'NOT_FOUND', path: '/', status_code: 400, errors: 'see message' });
      expect(body.timestamp).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    });
  });
});
