// setup() errors as one line: k6 prints an error thrown in setup with a stack, even a thrown
// string; aborting the test with the message prints the message alone (exit code 108).
// A refusal (credentials refused, a token route that timed out or redirected, another origin) is
// counted in load_refusals as in an iteration, so the report says failed, not passed, for a run
// that never reached its users; a token answer that could not be read leaves it inconclusive.
import exec from 'k6/execution';
import { countRefusal, Refusal, UnreadToken } from './iteration.ts';

export function inSetup<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof Refusal && !(error instanceof UnreadToken)) countRefusal();
    exec.test.abort(error instanceof Error ? error.message : String(error));
    throw error;
  }
}
