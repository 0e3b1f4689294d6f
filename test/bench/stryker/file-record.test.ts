import { describe, expect, it } from 'vitest';
import { type FileRecord, resumableRecord } from '../../../bench/stryker/file-record.ts';

const record: FileRecord = {
  commit: 'a'.repeat(40),
  spec: 'src/reference/guards.ts',
  date: '2026-11-29T00:00:00.000Z',
  seconds: 412,
  confirmed: true,
  variants: true,
  notReproduced: 1,
  kills: [
    {
      at: 'src/reference/guards.ts:12:3',
      original: 'a',
      replacement: 'b',
      exit: 1,
      checks: ['KEY-01'],
      more: 0,
      last: 'exit code 1',
    },
  ],
};
const want = { commit: record.commit, spec: record.spec, confirm: true, variants: true };

describe('a file pass a resumed mutation run may take', () => {
  it('is one of this commit, of the same lines, confirmed when the run confirms', () => {
    expect(resumableRecord(JSON.stringify(record), want)).toEqual(record);
    expect(
      resumableRecord(JSON.stringify({ ...record, confirmed: false }), { ...want, confirm: false }),
    ).toEqual({
      ...record,
      confirmed: false,
    });
  });

  it('is run again when of another commit, other lines, or without the confirmation or variants this run makes', () => {
    expect(resumableRecord(JSON.stringify(record), { ...want, commit: 'b'.repeat(40) })).toBeUndefined();
    expect(
      resumableRecord(JSON.stringify(record), { ...want, spec: 'src/reference/guards.ts:1-9' }),
    ).toBeUndefined();
    expect(resumableRecord(JSON.stringify({ ...record, confirmed: false }), want)).toBeUndefined();
    expect(resumableRecord(JSON.stringify({ ...record, variants: false }), want)).toBeUndefined();
    expect(
      resumableRecord(JSON.stringify({ ...record, variants: false }), { ...want, variants: false }),
    ).toEqual({
      ...record,
      variants: false,
    });
    // No commit (not a git checkout) is never a match, even with a record that has none either.
    expect(
      resumableRecord(JSON.stringify({ ...record, commit: '' }), { ...want, commit: '' }),
    ).toBeUndefined();
  });

  it('is run again when the record was cut short or is of another shape', () => {
    const text = JSON.stringify(record);
    expect(resumableRecord(text.slice(0, text.length / 2), want)).toBeUndefined();
    expect(resumableRecord('null', want)).toBeUndefined();
    expect(resumableRecord(JSON.stringify({ ...record, kills: 3 }), want)).toBeUndefined();
    expect(resumableRecord(JSON.stringify({ ...record, notReproduced: '1' }), want)).toBeUndefined();
  });
});
