// The conformance reporter's end of run (its files written, its table printed), which the closing
// line waits for so that it is printed last: vitest starts every reporter's onTestRunEnd at once, so
// the order of the reporters alone put the closing line above the table. Kept on globalThis:
// vitest may load each reporter as a module instance of its own.
const KEY = Symbol.for('conformance.reports-settled');
type Holder = { [KEY]?: Promise<unknown> };

export function reportsWriting(writing: Promise<unknown>): void {
  (globalThis as Holder)[KEY] = writing;
}

/** Resolves once the reports of this run are written and printed (at once when none are). */
export async function reportsSettled(): Promise<void> {
  await (globalThis as Holder)[KEY]?.catch(() => undefined);
}
