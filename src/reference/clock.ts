// The virtual clock: real time plus an offset that the control API moves forward, so token
// expiry, the 60 s flag cache and rate-limit windows are tested without waiting.
// Far enough for any test, and every virtual moment stays a valid Date (an unbounded advance made
// every later answer throw on toISOString and drop the connection).
export const MAX_ADVANCE_SECONDS = 100 * 365 * 86_400;

export class VirtualClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new Error(`the clock only moves forward: seconds must be a number >= 0, got ${String(seconds)}`);
    }
    const offsetMs = this.#offsetMs + seconds * 1000;
    if (seconds > MAX_ADVANCE_SECONDS || Number.isNaN(new Date(Date.now() + offsetMs).getTime())) {
      throw new Error(
        `the clock moves at most ${MAX_ADVANCE_SECONDS} s (100 years) at a time, got ${String(seconds)}`,
      );
    }
    this.#offsetMs = offsetMs;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}
