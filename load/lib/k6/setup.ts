// setup() errors as one line: k6 prints an error thrown in setup with a stack, even a thrown
// string; aborting the test with the message prints the message alone (exit code 108).
import exec from 'k6/execution';

export function inSetup<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    exec.test.abort(error instanceof Error ? error.message : String(error));
    throw error;
  }
}
