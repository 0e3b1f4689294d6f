// JSON with integers beyond 2^53 kept exact, for the pet-ids=int64 choice: a Pet id is an int64,
// and JSON.parse would round 9007199254740993 to ...992. Written for the reference server alone
// (the suite reads JSON with its own parser: a mistake in one must not be mirrored in the other).

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// A JSON number at lastIndex (sticky): its integer part, fraction and exponent read whole.
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export const inInt64 = (value: bigint) => value >= INT64_MIN && value <= INT64_MAX;

/**
 * JSON.parse, except that an integer literal beyond the safe range becomes a bigint. The literals
 * are found by a scan that skips strings, then swapped for marked strings that JSON.parse reads
 * and a reviver turns back; the mark holds a random part, so no string of the text can pass for one.
 */
export function parseExactIntegers(text: string): unknown {
  const mark = `@int64-${Math.random().toString(36).slice(2)}:`;
  let out = '';
  let last = 0;
  let swapped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // Skip the string, escapes included; an unterminated one is left to JSON.parse to refuse.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c !== '-' && (c === undefined || c < '0' || c > '9')) continue;
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text)?.[0];
    if (!number) continue;
    const integer = /^-?\d+$/.test(number) && !Number.isSafeInteger(Number(number));
    if (integer) {
      out += `${text.slice(last, i)}"${mark}${number}"`;
      last = i + number.length;
      swapped = true;
    }
    i += number.length - 1;
  }
  if (!swapped) return JSON.parse(text);
  return JSON.parse(out + text.slice(last), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(mark) ? BigInt(value.slice(mark.length)) : value,
  );
}

/** JSON.stringify that writes a bigint as the integer it is (JSON.stringify alone throws on one). */
export function stringifyExactIntegers(value: unknown): string {
  const mark = `@int64-${Math.random().toString(36).slice(2)}:`;
  let swapped = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    swapped = true;
    return `${mark}${v}`;
  });
  if (!swapped) return text;
  // The mark is letters, digits and @-: it is written as it is, and holds nothing a pattern reads.
  return text.replace(new RegExp(`"${mark}(-?\\d+)"`, 'g'), '$1');
}
