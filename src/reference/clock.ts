// The virtual clock: real time plus an offset that the control API moves forward, so token
// expiry, the 60 s flag cache and rate-limit windows are tested without waiting.
export class VirtualClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new Error(`the clock only moves forward: seconds must be a number >= 0, got ${String(seconds)}`);
    }
    this.#offsetMs += seconds * 1000;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}
