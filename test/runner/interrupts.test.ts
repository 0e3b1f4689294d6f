// The signal handling of conformance runs, with the process exit replaced: a first signal stops
// the run and has the reports written, then exits 130 (SIGINT) or 143 (SIGTERM); a second ends at
// once even while the reports are still being written; a copy of the first within moments (tsx
// relays a terminal's Ctrl-C) is not a second one; before the run exists, a signal ends at once.
import { afterEach, describe, expect, it } from 'vitest';
import { clearInterruption, interruptedBy } from '../../src/report/interruption.ts';
import { handleInterrupts, type InterruptHandling } from '../../src/runner/interrupts.ts';

let handling: InterruptHandling | undefined;
afterEach(() => {
  handling?.dispose();
  clearInterruption();
});

/** Handling whose exit resolves `exits` instead of ending the test process. */
function setUp(graceMs = 20, repeatMs = 500) {
  const lines: string[] = [];
  let exited: (code: number) => void = () => undefined;
  const exits = new Promise<number>((resolve) => {
    exited = resolve;
  });
  handling = handleInterrupts({
    graceMs,
    repeatMs,
    write: (line) => lines.push(line.trim()),
    // Returns, where process.exit would not: the handling does nothing after it anyway.
    exit: (code) => {
      exited(code);
      return undefined as never;
    },
  });
  return { lines, exits };
}

function signal(name: 'SIGINT' | 'SIGTERM') {
  process.emit(name, name);
}

describe('handleInterrupts', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s during the run: stop, write the reports, exit %i', async (name, code) => {
    const { lines, exits } = setUp();
    const calls: string[] = [];
    handling?.attach({
      stop: async () => calls.push('stop'),
      report: async () => calls.push(`report (interrupted by ${interruptedBy()})`),
    });
    signal(name);
    expect(await exits).toBe(code);
    expect(calls).toEqual(['stop', `report (interrupted by ${name})`]);
    expect(lines[0]).toBe(
      `conformance: interrupted (${name}): stopping; the checks in flight get 0.02 s, then the reports are written (Ctrl-C again to end at once)`,
    );
  });

  it('the run ended within the grace period: its reports, written once, then the exit', async () => {
    const { exits } = setUp(60_000);
    let reports = 0;
    handling?.attach({ stop: async () => undefined, report: async () => void reports++ });
    signal('SIGINT');
    // The run ends by itself after the cancel: the CLI asks, long before the grace period is over.
    const asked = handling?.exitIfInterrupted().catch(() => undefined);
    expect(await exits).toBe(130);
    await asked;
    expect(reports).toBe(1);
  });

  it('a second Ctrl-C ends at once, while the reports are still being written', async () => {
    const { lines, exits } = setUp(0, 0);
    let reportStarted: () => void = () => undefined;
    const started = new Promise<void>((r) => {
      reportStarted = r;
    });
    // A report that never finishes (a file system that hangs).
    handling?.attach({
      stop: async () => undefined,
      report: () => {
        reportStarted();
        return new Promise(() => undefined);
      },
    });
    signal('SIGINT');
    await started;
    signal('SIGINT');
    expect(await exits).toBe(130);
    expect(lines.at(-1)).toBe(
      'conformance: SIGINT again: ending at once; the reports of this run may be missing',
    );
  });

  it('a copy of the first signal a moment later is not a second Ctrl-C', async () => {
    const { lines } = setUp(60_000);
    handling?.attach({ stop: async () => undefined, report: () => new Promise(() => undefined) });
    signal('SIGINT');
    signal('SIGINT');
    expect(lines).toHaveLength(1);
  });

  it('before the run exists: ends at once, nothing to report', async () => {
    const { lines, exits } = setUp();
    signal('SIGTERM');
    expect(await exits).toBe(143);
    expect(lines).toEqual(['conformance: interrupted (SIGTERM) before any check ran; no report written']);
  });
});
