// The one curl renderer: a recorded exchange's request as a command a person can paste. It reads
// the request as it was sent (the recorder's replay: URL, headers, body, each secret a named
// variable) and quotes it once, word by word, from that structured data: literal text in single
// quotes, a secret as "$CLIENT_SECRET" (the table's secret rows; $ACCESS_TOKEN for a token the run
// obtained), which the shell expands to the same bytes, inside a JSON body too. Nothing edits the
// line as text afterwards.
import { printableCommand } from '../../common/safe-text.ts';
import { VARIABLES } from '../../common/variables.ts';
import type { ReplayPart, ReplayRequest } from './replay.ts';
import { ACCESS_TOKEN, replayVariables } from './replay.ts';
import type { RecordedExchange } from './types.ts';

/** Headers curl writes itself from the URL and the body. */
const CURL_WRITES = new Set(['host', 'content-length']);

/** One shell word: literal parts single-quoted, variables double-quoted, side by side. */
export function shellWord(parts: readonly ReplayPart[]): string {
  // Neighbouring literal parts go in one pair of quotes.
  const merged: ReplayPart[] = [];
  for (const p of parts) {
    const last = merged.at(-1);
    if (typeof p === 'string' && typeof last === 'string') merged[merged.length - 1] = last + p;
    else merged.push(p);
  }
  const word = merged
    .map((p) => (typeof p === 'string' ? `'${p.replace(/'/g, `'\\''`)}'` : `"$${p.variable}"`))
    .join('');
  return word === '' ? "''" : word;
}

/** An exchange recorded without its replay (older results): its redacted text, as it reads. */
function replayOfText(x: RecordedExchange): ReplayRequest {
  return {
    method: x.method,
    url: [x.url],
    headers: Object.entries(x.requestHeaders).map(([name, value]) => [name, [value]]),
    ...(x.requestBody === undefined ? {} : { body: [x.requestBody] }),
  };
}

/** The replay of an exchange: what the recorder kept of the request as sent. */
export const replayOfExchange = (x: RecordedExchange): ReplayRequest => x.replay ?? replayOfText(x);

const printable = (text: string) => printableCommand(text) !== undefined;

/**
 * `printf 'FORMAT' "$VAR"...`: the body's exact bytes, each unprintable character as its UTF-8
 * bytes in octal escapes, each secret as %s of its variable (so no escape reads inside a secret).
 */
function printfOf(parts: readonly ReplayPart[]): string {
  let format = '';
  const args: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string') {
      format += '%s';
      args.push(`"$${part.variable}"`);
      continue;
    }
    for (const ch of part) {
      if (ch === '%') format += '%%';
      else if (ch === '\\') format += '\\\\';
      else if (printable(ch)) format += ch;
      // A byte that is no UTF-8, written as its lone surrogate (outgoing.ts bodyBytes): the byte.
      else if (/^[\uDC80-\uDCFF]$/.test(ch)) format += `\\${(ch.charCodeAt(0) - 0xdc00).toString(8)}`;
      else for (const byte of Buffer.from(ch, 'utf8')) format += `\\${byte.toString(8).padStart(3, '0')}`;
    }
  }
  return ['printf', shellWord([format]), ...args].join(' ');
}

export function curlOfReplay(r: ReplayRequest): string {
  const words = ['curl', '-i'];
  const hasBody = r.body !== undefined;
  const url = r.url.map((p) => (typeof p === 'string' ? p : '')).join('');
  // curl reads [] and {} in a URL as its own ranges unless told not to.
  if (/[[\]{}]/.test(url)) words.push('-g');
  if (r.method === 'HEAD') words.push('-I');
  else if (!(r.method === (hasBody ? 'POST' : 'GET'))) words.push('-X', r.method);
  words.push(shellWord(r.url));
  let contentType = false;
  for (const [name, parts] of r.headers) {
    const lower = name.toLowerCase();
    if (CURL_WRITES.has(lower)) continue;
    if (lower === 'content-type') contentType = true;
    // `-H 'name:'` would remove the header; `name;` sends it empty.
    words.push('-H', parts.length === 0 ? shellWord([`${name};`]) : shellWord([`${name}: `, ...parts]));
  }
  // A body with a line break or a control character would not be one printable line: printf
  // writes its bytes from escapes, and curl reads them from its standard input.
  const piped = hasBody && (r.body ?? []).some((p) => typeof p === 'string' && !printable(p));
  // The client sends no User-Agent; curl would add its own unless told not to.
  if (!r.headers.some(([name]) => name.toLowerCase() === 'user-agent')) {
    words.push('-H', shellWord(['user-agent:']));
  }
  if (hasBody) {
    // Without a content type of its own, curl would add application/x-www-form-urlencoded.
    if (!contentType) words.push('-H', shellWord(['content-type:']));
    words.push(...(piped ? ['--data-binary', '@-'] : ['--data-raw', shellWord(r.body ?? [])]));
  }
  const line = piped ? `${printfOf(r.body ?? [])} | ${words.join(' ')}` : words.join(' ');
  return r.bodyCut === undefined
    ? line
    : `${line} # the body is cut to its first characters; the request sent ${r.bodyCut}`;
}

export function curlOf(exchange: RecordedExchange): string {
  return curlOfReplay(replayOfExchange(exchange));
}

/** The variables a command of this exchange needs exported, each once. */
export function curlVariables(exchange: RecordedExchange): string[] {
  return replayVariables(replayOfExchange(exchange));
}

/** The variables a person sets: the rows of `.env` (docs/configuration.md). */
const SETTABLE = new Set(VARIABLES.map((v) => v.name));

/** A variable a command may expand: a row of `.env`, or the token a command fetches first. */
export const settable = (variable: string): boolean => variable === ACCESS_TOKEN || SETTABLE.has(variable);

/** Whether an exchange's command runs as printed: only settable variables, only printable text. */
export function reproducible(exchange: RecordedExchange): boolean {
  return curlVariables(exchange).every(settable) && printableCommand(curlOf(exchange)) !== undefined;
}

/** The variables named in a rendered command (for tests and the lines that say what to export). */
export function variablesOf(command: string): string[] {
  return [...new Set([...command.matchAll(/"\$([A-Z0-9_]+)"/g)].map((m) => m[1] ?? ''))].filter(Boolean);
}
