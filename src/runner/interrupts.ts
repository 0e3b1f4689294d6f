// What SIGINT (Ctrl-C) and SIGTERM (a CI job cancelled at its time limit) do to a conformance run:
// the first stops sending (vitest cancels the run), gives the checks in flight a few seconds, then
// has the reporter write every report with what the run learnt, and ends with 130 or 143. A second
// signal ends at once. Before the run starts there is nothing to report: the signal ends it at once.

import { firstLine } from '../client/errors.ts';
import { removeTemporaryFiles } from '../report/atomic-write.ts';
import { type InterruptSignal, markInterrupted, SIGNAL_EXIT_CODES } from '../report/interruption.ts';

/**
 * How long the checks in flight get to finish (a request, a short wait) before the reports are
 * written. 2 s, not 3: a busy CI machine took 2.1 s to write the reports, and an interrupted run
 * must end within 5 s of the signal.
 */
export const GRACE_MS = 2000;
// npm forwards the signal it gets to its script, and a terminal's Ctrl-C reaches the script
// directly as well, so one keypress arrives twice within milliseconds: that is not a second Ctrl-C.
export const REPEAT_MS = 500;

export interface InterruptHandling {
  /** The signal that interrupted the run, if one did. */
  readonly signal: InterruptSignal | undefined;
  /**
   * The run has started: from now on a first signal calls `stop` (cancel, do not wait), and after
   * the grace period `report` (write what is known, bounded by the caller), then exits.
   */
  attach(run: { stop: () => Promise<unknown>; report: () => Promise<unknown> }): void;
  /** Waits for the grace period's reports, if an interrupt is under way, then exits with its code. */
  exitIfInterrupted(): Promise<void>;
  dispose(): void;
}

export interface InterruptOptions {
  graceMs?: number;
  /** A second signal this soon after the first is a copy of it (default REPEAT_MS). */
  repeatMs?: number;
  write?: (line: string) => void;
  exit?: (code: number) => never;
}

export function handleInterrupts(options: InterruptOptions = {}): InterruptHandling {
  const graceMs = options.graceMs ?? GRACE_MS;
  const repeatMs = options.repeatMs ?? REPEAT_MS;
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let signal: InterruptSignal | undefined;
  let firstAt = 0;
  let run: { stop: () => Promise<unknown>; report: () => Promise<unknown> } | undefined;
  let reporting: Promise<void> | undefined;

  // Writes the reports once, however many paths lead here (grace over, run ended, attached late).
  const reportAndExit = (): Promise<void> => {
    reporting ??= (async () => {
      const code = SIGNAL_EXIT_CODES[signal ?? 'SIGINT'];
      try {
        await run?.report();
      } catch (error) {
        write(`conformance: could not write the reports: ${firstLine(error)}`);
      }
      removeTemporaryFiles();
      exit(code);
    })();
    return reporting;
  };

  const startGrace = () => {
    run?.stop().catch(() => undefined);
    // Not unref'd: if the run does not end in time, this is what ends it.
    setTimeout(() => void reportAndExit(), graceMs);
  };

  const onSignal = (received: NodeJS.Signals) => {
    const now = Date.now();
    const name: InterruptSignal = received === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    if (signal === undefined) {
      signal = name;
      firstAt = now;
      markInterrupted(name);
      if (!run) {
        write(`conformance: interrupted (${name}) before any check ran; no report written`);
        removeTemporaryFiles();
        exit(SIGNAL_EXIT_CODES[name]);
        return;
      }
      write(
        `\nconformance: interrupted (${name}): stopping; the checks in flight get ${graceMs / 1000} s, ` +
          'then the reports are written (Ctrl-C again to end at once)',
      );
      startGrace();
      return;
    }
    if (name === signal && now - firstAt < repeatMs) return;
    write(`conformance: ${name} again: ending at once; the reports of this run may be missing`);
    removeTemporaryFiles();
    exit(SIGNAL_EXIT_CODES[name]);
  };

  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    get signal() {
      return signal;
    },
    attach(attached) {
      run = attached;
      // A signal that came while the run was being set up: stop it now.
      if (signal !== undefined) startGrace();
    },
    async exitIfInterrupted() {
      if (signal !== undefined) await reportAndExit();
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
