// A refusal inside a virtual user's iteration (a request to another origin, a token that cannot be
// had) as one console line and a failed run, not a JavaScript stack: k6 prints an error that leaves
// an iteration with its stack, even a thrown string. The refusal is counted in load_refusals, whose
// threshold (count==0, abortOnFail: load/lib/bounded.ts) stops the run, exit 99, the threshold
// failed in the report. Other errors are the scripts' own bugs: they keep their stack.
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { REFUSALS_METRIC } from '../bounded.ts';

/** A refusal to go on, worded for the console: one line, no target text but an origin or a code. */
export class Refusal extends Error {}

/**
 * The refusal of a token answer that could not be read (no length, too large, a content coding): in
 * setup, before any user ran, the run proved nothing (inconclusive, load/lib/bounded-read.ts
 * unreadTokenStop), so it is not counted there as a refusal; in an iteration it is.
 */
export class UnreadToken extends Refusal {}

// k6 has a console (its lines go to k6's log); @types/k6 does not declare it.
declare const console: { error(...data: unknown[]): void };

const refusals = new Counter(REFUSALS_METRIC);
const said = new Set<string>();

/** Counts a refusal: load_refusals' threshold then fails the run (and stops it, abortOnFail). */
export function countRefusal(): void {
  refusals.add(1);
}

/** Runs one iteration; a Refusal ends it, said once per virtual user and reason. */
export function inIteration(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    countRefusal();
    if (!said.has(error.message) && said.size < 20) {
      said.add(error.message);
      console.error(error.message);
    }
    // The run stops at the next threshold evaluation; until then a user must not hammer the target
    // with refused iterations (20 users asked a bad token route 2,500 times in 2 s without it).
    sleep(1);
  }
}
