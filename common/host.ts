// One spelling per host, for both halves: the production guard compares hosts, and the Node side
// and k6 must send to the same address. WHATWG URL parsers (Node's) read 127.1, 2130706433 and
// 0x7f.0.0.1 as 127.0.0.1; Go's (k6's) resolver does not, so the configuration writes every such
// host in its one dotted form before either side uses it. A host that looks numeric but is no IPv4
// address is refused: guessing would let two parsers disagree. k6-safe, no regular expressions on
// the value (it may be long).

export type HostRead = { ok: true; host: string } | { ok: false };

/** One IPv4 part as WHATWG reads it: decimal, 0x hex, or leading-0 octal; undefined if not a number. */
function ipv4Part(part: string): number | undefined {
  if (part === '') return undefined;
  let digits = part;
  let radix = 10;
  if (part.length > 1 && (part.startsWith('0x') || part.startsWith('0X'))) {
    digits = part.slice(2);
    radix = 16;
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  let value = 0;
  for (const ch of digits) {
    const d = Number.parseInt(ch, radix);
    if (Number.isNaN(d)) return undefined;
    value = value * radix + d;
    if (value > 0xffffffff) return Number.POSITIVE_INFINITY;
  }
  return value;
}

/** Whether the host's last label is a number (WHATWG "ends in a number"): then it must be IPv4. */
function endsInNumber(labels: string[]): boolean {
  const last = labels.at(-1) ?? '';
  if (last === '') return false;
  let allDigits = true;
  for (const ch of last) if (ch < '0' || ch > '9') allDigits = false;
  return allDigits || ipv4Part(last) !== undefined;
}

function ipv4(labels: string[]): string | undefined {
  if (labels.length > 4) return undefined;
  const parts = labels.map(ipv4Part);
  if (parts.some((p) => p === undefined)) return undefined;
  const numbers = parts as number[];
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** The 8 groups of an IPv6 literal (no brackets), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = ipv4(piece.split('.'));
        if (v4 === undefined || piece.split('.').length !== 4) return undefined;
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        out.push(a * 256 + b, c * 256 + d);
        continue;
      }
      if (piece.length < 1 || piece.length > 4) return undefined;
      for (const ch of piece) if (Number.isNaN(Number.parseInt(ch, 16))) return undefined;
      out.push(Number.parseInt(piece, 16));
    }
    return out;
  };
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/** RFC 5952's text: lower case, no leading zeros, the longest run of two or more zero groups as ::. */
function ipv6Text(groups: number[]): string {
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/**
 * The host in its one spelling: lower case, no trailing dot, IPv4 dotted decimal (however it was
 * written), IPv6 in brackets per RFC 5952, an IPv4-mapped IPv6 address as its IPv4 address.
 */
export function normalizeHost(raw: string): HostRead {
  let host = raw.toLowerCase();
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return { ok: false };
    const groups = ipv6Groups(host.slice(1, -1));
    if (!groups) return { ok: false };
    const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
    if (mapped) {
      const [hi, lo] = [groups[6] as number, groups[7] as number];
      return { ok: true, host: [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.') };
    }
    return { ok: true, host: `[${ipv6Text(groups)}]` };
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') return { ok: false };
  const labels = host.split('.');
  if (labels.some((l) => l === '')) return { ok: false };
  if (!endsInNumber(labels)) return { ok: true, host };
  const v4 = ipv4(labels);
  return v4 === undefined ? { ok: false } : { ok: true, host: v4 };
}
