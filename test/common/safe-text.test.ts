// One function per sink makes the target's text safe there (common/safe-text.ts): a
// terminal or CI log, Markdown, HTML, XML and JSON. Each is given what a hostile target sends:
// escape sequences (OSC 52 clipboard, OSC 8 hyperlink, OSC 0 title, CSI), C1 controls, bidi
// overrides, GitHub workflow commands on their own lines, markup, and huge text.
import { describe, expect, it } from 'vitest';
import {
  cutText,
  htmlText,
  jsonText,
  markdownCodeBlock,
  markdownText,
  printableCommand,
  showControls,
  terminalText,
  xmlText,
} from '../../common/safe-text.ts';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const OSC8 = '\u001b]8;;http://127.0.0.9/\u001b\\click\u001b]8;;\u001b\\';
const OSC0 = '\u001b]0;title\u0007';
const CSI = '\u001b[2J\u001b[31m';
const C1_CSI = '\u009b31m';
const BIDI = 'abc\u202edcb';
const HOSTILE = `${OSC52}${OSC8}${OSC0}${CSI}${C1_CSI}${BIDI}\r\n::add-mask::exit\n  ::error file=x::boom\n##[error]old`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('shows every control character and escape as text, none raw', () => {
    const out = terminalText(HOSTILE);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain('\\x1b]52;c;ZWNobyBwd25lZA==\\x07');
    expect(out).toContain('\\x9b31m');
    expect(out).toContain('\\u202e');
  });

  it('is one line unless asked, and no line of it is a workflow command', () => {
    expect(terminalText(HOSTILE)).not.toContain('\n');
    const lines = terminalText(HOSTILE, { lines: true }).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line).not.toMatch(/^\s*(::|##\[)/);
    expect(lines).toContain('\\x3a:add-mask::exit');
    expect(terminalText('::error::x')).toBe('\\x3a:error::x');
  });

  it('cuts to its maximum, saying how much is left out', () => {
    const out = terminalText('n'.repeat(4 * 1024 * 1024), { max: 4096 });
    expect(out.length).toBeLessThan(4200);
    expect(out).toMatch(/… \[4190208 more characters\]$/);
    expect(cutText('abc', 3)).toBe('abc');
  });
});

describe('markdownText', () => {
  it('keeps markup, table breaks, escapes and backslashes from working', () => {
    const out = markdownText(`a\\|b | <img src=x> \`code\` [l](http://x) *e* ~~s~~ ${OSC52}\nnext`);
    expect(out).toBe(
      'a\\\\\\|b \\| &lt;img src=x&gt; \\`code\\` \\[l\\](http://x) \\*e\\* \\~\\~s\\~\\~ \\\\x1b\\]52;c;ZWNobyBwd25lZA==\\\\x07 next',
    );
    expect(out).not.toMatch(RAW_CONTROL);
  });

  it('fences code with more backticks than the code holds, and leaves the code as it is', () => {
    const command = "curl -i 'http://h/x?q=```$(id)```'";
    const block = markdownCodeBlock(command, 'sh');
    expect(block).toEqual(['````sh', command, '````']);
    expect(markdownCodeBlock('curl x')).toEqual(['```', 'curl x', '```']);
  });
});

describe('htmlText and xmlText', () => {
  it('escape markup and show control characters', () => {
    expect(htmlText(`<script>'"&${CSI}`)).toBe('&lt;script&gt;&#39;&quot;&amp;\\x1b[2J\\x1b[31m');
    expect(xmlText(`<a b='c'>&\u0001\ufffe`)).toBe('&lt;a b=&apos;c&apos;&gt;&amp;\\x01\\ufffe');
    // A lone surrogate cannot be written in XML or UTF-8: shown as its escape.
    expect(xmlText('a\ud800b')).toBe('a\\ud800b');
    expect(xmlText('\ud83d\ude00')).toBe('\ud83d\ude00');
  });
});

describe('jsonText', () => {
  it('writes the same value with no raw control, C1 or bidi character', () => {
    const value = { body: HOSTILE, n: 1 };
    const text = jsonText(value, 2);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).not.toContain('\u2028');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('printableCommand', () => {
  it('gives a command of one printable line as it is, and nothing for any other', () => {
    const ok = `curl -i 'http://127.0.0.1/pets/%27%60%24(id)' -H 'x: '"'"'y'`;
    expect(printableCommand(ok)).toBe(ok);
    expect(printableCommand("curl --data-raw 'a\nb'")).toBeUndefined();
    expect(printableCommand(`curl --data-raw '${CSI}'`)).toBeUndefined();
    expect(showControls('tab\tand\nnewline')).toBe('tab\tand\nnewline');
  });
});

// A failure once read "expected conformance-pet, got conformance-pet": a zero-width space hid in
// the second. Every character that shows as nothing is shown as its escape, in every sink.
describe('characters that show as nothing', () => {
  const HIDDEN = [
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\u00ad',
    '\u180e',
    '\u2063',
    '\u3164',
    '\ufff9',
    '\u{e0041}',
  ];

  it.each(HIDDEN)('%j is shown as an escape by the terminal, Markdown, HTML and XML sinks', (char) => {
    const text = `conformance-${char}pet`;
    for (const shown of [terminalText(text), markdownText(text), htmlText(text), xmlText(text)]) {
      expect(shown).not.toContain(char);
      expect(shown).toMatch(/\\u|\\x/);
    }
  });

  it('JSON keeps the same value but writes them as escapes', () => {
    const value = { name: `pet${HIDDEN.join('')}` };
    const text = jsonText(value);
    for (const char of HIDDEN) expect(text).not.toContain(char);
    expect(JSON.parse(text)).toEqual(value);
  });
});
