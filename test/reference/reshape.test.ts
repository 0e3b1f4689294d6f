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
  it('the customers page and error body faults are data', () => {
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
        'errors-field-missing',
        'error-text-plain',
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
    const pageFaults = RESHAPING_FAULTS.filter((name) => !/error|status-code|timestamp/.test(name));
    await withServer({ faults: pageFaults }, async (s) => {
      const answer = await s.withKey('/api/v1/customers?page=4');
      expect(answer.status).toBe(422);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    });
  });

  it('error body reshapes combine and apply to every error: all of them on a 404', async () => {
    const errorFaults = RESHAPING_FAULTS.filter((name) => /error|status-code|timestamp/.test(name));
    await withServer({ faults: errorFaults }, async (s) => {
      const answer = await s.call('/api/v1/nothing-here');
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      const body = JSON.parse(answer.text) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'id', 'path', 'status_code', 'timestamp']);
      expect(body).toMatchObject({ code: 'NOT_FOUND', path: '/', status_code: 400 });
      expect(body.timestamp).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    });
  });
});
