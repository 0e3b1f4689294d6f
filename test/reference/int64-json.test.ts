// The reference server's own exact-integer JSON (pet-ids=int64): integers beyond 2^53 read and
// written exactly, everything else as JSON.parse and JSON.stringify do.
import { describe, expect, it } from 'vitest';
import { parseExactIntegers, stringifyExactIntegers } from '../../src/reference/int64-json.ts';

const BIG = ['9007199254740993', '9223372036854775807', '-9223372036854775808'];

describe('parseExactIntegers', () => {
  it('reads integers beyond 2^53 as bigints, and the rest as JSON.parse does', () => {
    const text = `{"ids":[${BIG.join(',')}],"small":[1,-2,0],"f":1.5,"e":12345678901234567890e0,"s":"${BIG[0]} \\" ${BIG[1]}"}`;
    const read = parseExactIntegers(text) as Record<string, unknown>;
    expect(read.ids).toEqual(BIG.map(BigInt));
    const { ids: _exact, ...rest } = read;
    const { ids: _lossy, ...native } = JSON.parse(text) as Record<string, unknown>;
    // A string holding digits, a fraction and an exponent are JSON.parse's values.
    expect(rest).toEqual(native);
  });

  it('reads an integer of 500 digits whole', () => {
    const digits = `1${'0'.repeat(499)}`;
    expect(parseExactIntegers(`[${digits}]`)).toEqual([BigInt(digits)]);
  });

  it.each(['{"a":1,}', `[${BIG[0]} 1]`, `{"id":${BIG[0]}`, '"open', `[0${BIG[0]}]`, ''])(
    'refuses %j as JSON.parse does',
    (bad) => {
      expect(() => parseExactIntegers(bad)).toThrow(SyntaxError);
      expect(() => JSON.parse(bad)).toThrow(SyntaxError);
    },
  );
});

describe('stringifyExactIntegers', () => {
  it('writes a bigint as the integer it is and everything else as JSON.stringify does', () => {
    const value = { id: BigInt(BIG[2] as string), name: `"@int64-x:1" ${BIG[0]}`, n: [1, 2.5] };
    expect(stringifyExactIntegers(value)).toBe(
      `{"id":${BIG[2]},"name":"\\"@int64-x:1\\" ${BIG[0]}","n":[1,2.5]}`,
    );
    expect(stringifyExactIntegers({ a: [1, 'b'] })).toBe(JSON.stringify({ a: [1, 'b'] }));
  });

  it('round-trips with the parser', () => {
    const text = `[{"id":${BIG[1]},"name":"a"},{"id":-1,"name":"b"}]`;
    expect(stringifyExactIntegers(parseExactIntegers(text))).toBe(text);
  });
});
