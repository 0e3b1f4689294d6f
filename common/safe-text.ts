// Text from the target is data wherever it is shown: one function per sink makes it safe there.
// Secrets are not this module's job: they are redacted on the structured values before any of
// these runs (secret-filter.ts), so nothing here cuts a secret in half or sees one whole.
// Shell is not here either: curl lines are built from structured data and quoted once
// (src/client/curl.ts), and no sink edits them afterwards.
// k6-safe: no Node or k6 imports (the k6 summaries use the same functions).

// C0 controls but tab and newline, DEL, C1 (U+0080-U+009F, CSI among them), the bidirectional
// marks, overrides and isolates, line and paragraph separators, the byte order mark, lone
// surrogates, and the characters that show as nothing: the soft hyphen, zero-width space, joiners
// and word joiner, invisible operators, the Mongolian vowel separator, Hangul fillers, interlinear
// annotation marks and the tag characters (U+E0000-U+E007F). Shown, "conformance-pet" with a
// zero-width space in it can no longer read as "conformance-pet".
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2028\u2029\u3164\ufeff\uffa0\ufff9-\ufffb\ufffe\uffff]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `\x1b`, `\u202e`, `\u{e0041}`: how an unsafe character is shown, visibly and as nothing else. */
export function visible(char: string): string {
  if (char.length === 2) return `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`;
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every unsafe character shown as its escape; tabs and newlines kept. */
export function showControls(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * A shell command (a curl line) as built, or undefined when it holds a character no sink may
 * print (a control character, a newline): a command is never edited after it is quoted, so a sink
 * that cannot show it whole says so instead.
 */
export function printableCommand(command: string): string | undefined {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(command) || /[\n\t]/.test(command) ? undefined : command;
}

/** What a sink prints in place of a command it cannot show whole. */
export const UNPRINTABLE_COMMAND =
  '(not shown: the request holds control characters or line breaks; its exchange is in results.json)';

/** All whitespace runs (newlines included) as one space. */
function oneLine(text: string): string {
  return text.replace(/[\t\n\r\u2028\u2029 ]+/g, ' ').trim();
}

/** Cut to `max` characters with an ellipsis and how much was left out. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

// A line that starts (after blanks) with `::` is a GitHub workflow command (`::add-mask::`,
// `::error::`, `::stop-commands::`), one with `##[` the older form: its first character is shown
// escaped, so the runner reads an ordinary line.
const WORKFLOW_COMMAND = /^([ \t]*)(::|##\[)/gm;

/**
 * Target text for a terminal or a log (which CI may parse): no escape sequence, no control
 * character (each shown as `\x1b`), no line the Actions runner would take as a command. One line
 * unless `lines` is set; cut to `max` characters.
 */
export function terminalText(text: string, options: { max?: number; lines?: boolean } = {}): string {
  const shown = showControls(options.lines ? text.replace(/\r\n?/g, '\n') : oneLine(text));
  const cut = options.max === undefined ? shown : cutText(shown, options.max);
  return cut.replace(
    WORKFLOW_COMMAND,
    (_m, blank: string, mark: string) => `${blank}${visible(mark[0] ?? '')}${mark.slice(1)}`,
  );
}

/**
 * Target text inside Markdown (a list item, a table cell): one line, no raw HTML, every character
 * Markdown or a table gives a meaning escaped, control characters shown; cut to `max`.
 */
export function markdownText(text: string, max = 300): string {
  return cutText(showControls(oneLine(text)), max)
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([|*_`[\]~])/g, '\\$1');
}

/**
 * A fenced Markdown code block that shows `code` exactly: the fence is longer than any run of
 * backticks inside, so nothing in the code can close it. The code itself is never edited.
 */
export function markdownCodeBlock(code: string, language = ''): string[] {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, code, fence];
}

/** Target text in HTML text or a quoted attribute: escaped, control characters shown. */
export function htmlText(text: string): string {
  return showControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Target text in XML 1.0 text or a quoted attribute (JUnit): escaped, control characters shown. */
export function xmlText(text: string): string {
  return showControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

// JSON.stringify writes these raw: harmless to a parser, not to a terminal that shows the file
// (U+009B is CSI) or to an editor (bidirectional overrides).
const JSON_RAW =
  /[\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2028\u2029\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** Each UTF-16 unit as a JSON \u escape (a surrogate pair as two, as JSON writes them). */
const unitEscapes = (c: string) =>
  Array.from({ length: c.length }, (_x, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * A value as JSON text: JSON.stringify (which escapes C0 controls, ESC among them, and lone
 * surrogates), then the characters it leaves raw as \u escapes. They occur only inside strings,
 * so the document stays the same value.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_RAW, unitEscapes);
}
