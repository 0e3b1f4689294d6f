// Work several checks of one suite share (a walk of every page, one provoked 429): done once per
// file, its exchanges attached to the evidence of every check that uses it. Spares the target
// requests no check needs.
import { type ApiClient, createApiClient, createRecorder, type RecordedExchange } from '../client/index.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';
import { type ControlClient, controlOf } from './control.ts';
import type { CheckContext } from './define.ts';

/** `control` is the target's control API, undefined where it offers none (a remote target). */
export function shared<T>(
  work: (client: ApiClient, config: TargetConfig, control: ControlClient | undefined) => Promise<T>,
): (t: CheckContext) => Promise<T> {
  // Success or failure, the work's exchanges are every using check's evidence, not only the first's.
  let pending:
    | Promise<{ value?: T; error?: unknown; failed: boolean; exchanges: RecordedExchange[] }>
    | undefined;
  // A check that asks twice (a helper of the suite and the check itself) holds the evidence once:
  // a second copy only doubled the reports and what the workers hand the reporter.
  const attachedTo = new WeakSet<CheckContext>();
  return async (t) => {
    pending ??= (async () => {
      const config = t.config;
      const recorder = createRecorder(secretValues(config));
      try {
        const value = await work(createApiClient(config, { recorder }), config, controlOf(config));
        return { value, failed: false, exchanges: recorder.exchanges() };
      } catch (error) {
        return { error, failed: true, exchanges: recorder.exchanges() };
      }
    })();
    const outcome = await pending;
    if (!attachedTo.has(t)) {
      attachedTo.add(t);
      t.attach(outcome.exchanges);
    }
    if (outcome.failed) throw outcome.error;
    return outcome.value as T;
  };
}

/** What shared work returns when the target cannot give what the checks need. */
export class Unavailable {
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

/** The shared result, or the check ends as skipped with the reason. */
export function available<T>(t: CheckContext, value: T | Unavailable): T {
  if (value instanceof Unavailable) return t.skip(value.reason);
  return value;
}
