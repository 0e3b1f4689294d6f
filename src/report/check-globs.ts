// Check ids as a selection names them: the id a failure prints, with * (any run of characters) and
// ? (one character) as wildcards, case aside. Shared by the CLI (vitest's test-name pattern) and
// the reporter (which invariants a selection of checks asked for).

function escaped(text: string): string {
  return text.replace(/[.+^${}()|[\]\\-]/g, '\\$&');
}

/** A check id or glob as the source of a regular expression matching one word. */
export function globSource(glob: string): string {
  return glob
    .split('')
    .map((c) => (c === '*' ? '\\S*' : c === '?' ? '\\S' : escaped(c)))
    .join('');
}

export function matchesCheck(glob: string, id: string): boolean {
  return new RegExp(`^${globSource(glob)}$`, 'i').test(id);
}
