import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from '../../common/media-type.ts';
import { filesMatching } from '../support/sources.ts';

describe('the one JSON media-type rule', () => {
  it('takes application/json and +json suffixes, with parameters and in any case', () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      'application/problem+json',
      ' application/vnd.api+json ;v=1',
    ])
      expect(isJsonMediaType(type), type).toBe(true);
  });

  it('refuses what is not JSON', () => {
    for (const type of [
      undefined,
      '',
      'text/json',
      'application/jsonx',
      'application/json-seq',
      'application/+json',
      'application/xml',
      'json',
    ])
      expect(isJsonMediaType(type), String(type)).toBe(false);
  });

  it('is linear on the target text (5 MiB of suffix characters)', () => {
    const hostile = `application/${'+'.repeat(5 * 1024 * 1024)}x`;
    const started = performance.now();
    expect(isJsonMediaType(hostile)).toBe(false);
    // Generous: a linear pass takes milliseconds; only a backtracking engine takes seconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is written once: no other module of the suite spells the pattern', () => {
    expect(
      filesMatching(/\+\)\?json\\b/, ['src', 'load', 'common', 'suites'], 'common/media-type.ts').filter(
        (path) => !path.startsWith('src/reference/'),
      ),
    ).toEqual([]);
  });
});
