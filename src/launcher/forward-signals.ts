// Ctrl+C and SIGTERM of a load run, passed on to the k6 it started (one k6, or every runner's):
// the first signal asks k6 to stop, and k6 still writes its summary; a second one, a second or
// more later, is passed on too, which ends k6 at once. npm passes a terminal's signal on as well,
// so the same Ctrl+C can arrive twice within milliseconds: that copy is not a second signal.

/** How soon after the first signal another one is taken for a copy of it. */
export const SIGNAL_COPY_MS = 1000;

export interface SignalForwarding {
  /** The first signal received, if any. */
  readonly interruptedBy: NodeJS.Signals | undefined;
  /** Stops listening: the run has ended. */
  dispose(): void;
}

export function forwardSignals(
  pass: (signal: NodeJS.Signals) => void,
  announce: (signal: NodeJS.Signals) => void,
  now: () => number = Date.now,
): SignalForwarding {
  let interruptedBy: NodeJS.Signals | undefined;
  let firstAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    const at = now();
    if (interruptedBy !== undefined && at - firstAt < SIGNAL_COPY_MS) return;
    if (interruptedBy === undefined) {
      interruptedBy = signal;
      firstAt = at;
      announce(signal);
    }
    pass(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get interruptedBy() {
      return interruptedBy;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
