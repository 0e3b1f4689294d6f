// JSON read without loss: an integer beyond 2^53 (a Pet id is an int64) comes back as a bigint, not
// as the nearest double, so an id the target lists is the id the suite asks for (9007199254740993
// read with JSON.parse is 9007199254740992, a pet that does not exist). Everything else is what
// JSON.parse gives: the same values, the last of duplicate keys. Linear, one pass; nesting deeper
// than MAX_DEPTH is read by JSON.parse instead (nothing of ours nests so deep).

import { isDeepStrictEqual } from 'node:util';

const MAX_DEPTH = 512;

class TooDeep extends Error {}

const LONG_DIGITS = /\d{16}/;

/** The value of a JSON text, integers beyond the safe range as bigint. Throws SyntaxError if it is not JSON. */
export function parseExactJson(text: string): unknown {
  // Sixteen digits in a row or more is where a double may stop being exact; without such a run
  // (nearly every answer) JSON.parse gives the same values, faster.
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  try {
    return new Reader(text).document();
  } catch (error) {
    if (error instanceof TooDeep) return JSON.parse(text);
    throw error;
  }
}

/** A number of the target's text: a bigint when it is an integer no double holds exactly. */
function numberOf(literal: string): number | bigint {
  const value = Number(literal);
  if (Number.isSafeInteger(value) || !/^-?\d+$/.test(literal)) return value;
  return BigInt(literal);
}

/** A key an object of a JSON text holds twice with values that differ (JSON.parse keeps the last). */
export interface ChangedDuplicate {
  key: string;
  first: unknown;
  last: unknown;
}

/**
 * The keys a JSON text repeats within one object with another value (`parsed`: JSON.parse of the
 * text, when the caller has it): readers differ on which one
 * they keep (RFC 8259 §4), so such a text says two things. Empty when there is none, when the text
 * is not JSON, or when it nests deeper than this reader goes.
 */
export function changedDuplicates(text: string, parsed?: unknown): ChangedDuplicate[] {
  if (noKeyTwice(text, parsed)) return [];
  const found: ChangedDuplicate[] = [];
  try {
    new Reader(text, found).document();
  } catch {
    return [];
  }
  return found;
}

// Every key of a JSON text ends in a quote and a colon (whitespace between allowed); a string may
// hold the same, so a text holds at least as many as its keys. One character class: linear.
const KEY_END = /"[ \t\n\r]*:/g;

/**
 * True when the text, read by JSON.parse, kept every key it gives: no more key ends in the text
 * than keys in its objects, so no object was given a key twice (nearly every answer, found without
 * the exact reader). False when it cannot tell (a duplicate, or a string holding `":`).
 */
function noKeyTwice(text: string, parsed?: unknown): boolean {
  let value: unknown = parsed;
  if (parsed === undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
  }
  let kept = 0;
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
      continue;
    }
    for (const key of Object.keys(v)) {
      kept++;
      pending.push((v as Record<string, unknown>)[key]);
    }
  }
  let ends = 0;
  KEY_END.lastIndex = 0;
  while (KEY_END.exec(text) !== null) {
    if (++ends > kept) return false;
  }
  return true;
}

// The characters a JSON string gives a meaning: its end, an escape, a control character it may not
// hold. One character class, no quantifier: linear on any text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const STRING_SPECIAL = /["\\\u0000-\u001f]/g;

class Reader {
  private at = 0;
  private readonly text: string;
  private readonly duplicates: ChangedDuplicate[] | undefined;
  constructor(text: string, duplicates?: ChangedDuplicate[]) {
    this.text = text;
    this.duplicates = duplicates;
  }

  document(): unknown {
    const value = this.value(0);
    this.space();
    if (this.at !== this.text.length) this.fail('unexpected text after the value');
    return value;
  }

  private fail(why: string): never {
    throw new SyntaxError(`${why} at position ${this.at}`);
  }

  private space(): void {
    const t = this.text;
    while (this.at < t.length) {
      const c = t.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at++;
    }
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new TooDeep();
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return this.fail('unexpected character');
  }

  private object(depth: number): Record<string, unknown> {
    this.at++;
    // A plain object as JSON.parse makes it: own properties, __proto__ a key like any other.
    const out: Record<string, unknown> = {};
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.fail('expected a key');
      const key = this.string();
      this.space();
      if (this.text[this.at] !== ':') this.fail('expected :');
      this.at++;
      const value = this.value(depth + 1);
      if (this.duplicates && Object.hasOwn(out, key) && !isDeepStrictEqual(out[key], value)) {
        this.duplicates.push({ key, first: out[key], last: value });
      }
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.space();
      const next = this.text[this.at++];
      if (next === '}') return out;
      if (next !== ',') this.fail('expected , or }');
    }
  }

  private array(depth: number): unknown[] {
    this.at++;
    const out: unknown[] = [];
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.space();
      const next = this.text[this.at++];
      if (next === ']') return out;
      if (next !== ',') this.fail('expected , or ]');
    }
  }

  private string(): string {
    const t = this.text;
    this.at++;
    let out = '';
    let from = this.at;
    for (;;) {
      // Jump to the next character with a meaning here (a long string of a target's was read one
      // character at a time: the largest cost of a run whose error bodies carry 60 KB paths).
      STRING_SPECIAL.lastIndex = this.at;
      const special = STRING_SPECIAL.exec(t);
      this.at = special ? special.index : t.length;
      if (this.at >= t.length) this.fail('unterminated string');
      const c = t.charCodeAt(this.at);
      if (c === 0x22) {
        out += t.slice(from, this.at);
        this.at++;
        return out;
      }
      if (c < 0x20) this.fail('control character in a string');
      out += t.slice(from, this.at);
      const e = t[this.at + 1];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && simple[e] !== undefined) {
        out += simple[e];
        this.at += 2;
      } else if (e === 'u') {
        const hex = t.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 6;
      } else {
        this.fail('bad escape');
      }
      from = this.at;
    }
  }

  private number(): number | bigint {
    const t = this.text;
    const start = this.at;
    if (t[this.at] === '-') this.at++;
    const digits = () => {
      const from = this.at;
      while (this.at < t.length && t.charCodeAt(this.at) >= 0x30 && t.charCodeAt(this.at) <= 0x39) this.at++;
      return this.at - from;
    };
    if (t[this.at] === '0') this.at++;
    else if (digits() === 0) this.fail('expected a digit');
    if (t[this.at] === '.') {
      this.at++;
      if (digits() === 0) this.fail('expected a digit after .');
    }
    if (t[this.at] === 'e' || t[this.at] === 'E') {
      this.at++;
      if (t[this.at] === '+' || t[this.at] === '-') this.at++;
      if (digits() === 0) this.fail('expected an exponent');
    }
    return numberOf(t.slice(start, this.at));
  }
}

/** JSON text of a value read by parseExactJson: its bigints written as the integers they are. */
export function exactJsonText(value: unknown): string | undefined {
  const marks: string[] = [];
  // A mark no text of the target's can hold: it cannot guess this run's tag.
  const tag = Math.random().toString(36).slice(2, 12);
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    marks.push(v.toString());
    return `exact-integer-${tag}-${marks.length - 1}`;
  });
  if (marks.length === 0 || text === undefined) return text;
  return text.replace(
    new RegExp(`"exact-integer-${tag}-(\\d+)"`, 'g'),
    (_m, i: string) => marks[Number(i)] ?? '0',
  );
}
