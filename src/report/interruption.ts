// Whether this run was interrupted, and by which signal. Set where the signal is handled
// (src/runner/interrupts.ts, in the CLI's process), read by the reporter; kept on globalThis because vitest loads the
// reporter through its own module loader, so the two may hold different copies of this module.
import type { InterruptSignal } from '../../common/exit-codes.ts';

export { type InterruptExitCode, type InterruptSignal, SIGNAL_EXIT_CODES } from '../../common/exit-codes.ts';

const KEY = Symbol.for('payments-crm-conformance.interrupted-by');
type Holder = { [KEY]?: InterruptSignal };

export function markInterrupted(signal: InterruptSignal): void {
  (globalThis as Holder)[KEY] = signal;
}

export function interruptedBy(): InterruptSignal | undefined {
  return (globalThis as Holder)[KEY];
}

/** For tests: a fresh start. */
export function clearInterruption(): void {
  delete (globalThis as Holder)[KEY];
}

const HOW: Record<InterruptSignal, string> = { SIGINT: 'SIGINT, Ctrl-C', SIGTERM: 'SIGTERM' };

/** The run problem the reports name. */
export function interruptionProblem(signal: InterruptSignal): string {
  return `interrupted (${HOW[signal]}): the checks that had not finished are not run`;
}
