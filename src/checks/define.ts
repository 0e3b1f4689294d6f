// check(): the one way a suite states a conformance check. It ties the check to its rule ids,
// gives it a recording client, turns unmet needs into skips with a reason (never a silent pass),
// and hands the reporter everything through the test's meta.
import { describe, inject, type TestContext, TestRunner, test } from 'vitest';
import { isJsonMediaType } from '../../common/media-type.ts';
import { terminalText } from '../../common/safe-text.ts';
import {
  type ApiClient,
  type ApiResponse,
  createApiClient,
  createRecorder,
  type ExchangeRecorder,
  type RecordedExchange,
  TokenError,
  TransportError,
} from '../client/index.ts';
import { type GuardedAction, guard, secretValues, type TargetConfig } from '../config/index.ts';
import { type Area, failsTheRun, findRule, levelOfRules } from '../rules/catalogue.ts';
import { areaOfTags, areaTag } from '../rules/tags.ts';
import { ensure, failedResponseOf } from './assertions.ts';
import { type ControlClient, controlOf } from './control.ts';
import { CheckFailed, type CheckFailure, reasonOf, withRule } from './failure.ts';
import type { CheckMeta, Generation } from './meta.ts';
import { serverFailureOf } from './server-failure.ts';

export interface CheckSpec {
  /** Stable id of the check, e.g. PAG-WALK. */
  id: string;
  title: string;
  /** The catalogue rules this check proves. */
  rules: string[];
  /** Production-guarded actions the check performs: it is skipped where the guard says no. */
  guarded?: GuardedAction[];
  timeoutMs?: number;
  /** Runs alone, in its place: it changes state other checks of the area observe (flags, clock). */
  sequential?: boolean;
  /** The generated requests' seed and budget (the generated checks): the reports name them. */
  generation?: Generation;
}

export interface CheckContext {
  readonly config: TargetConfig;
  /** A client whose every exchange is recorded as this check's evidence. */
  readonly client: ApiClient;
  /** A further client (own token) recording into the same evidence. */
  newClient(): ApiClient;
  /** Ends the check as skipped; the reason is reported. */
  skip(reason: string): never;
  /** The reference server's control API, or a skip saying why the check needs it. */
  needControl(why: string): ControlClient;
  /** Whether real-time waits are allowed (CONFORMANCE_SLOW). */
  readonly slow: boolean;
  /** Adds exchanges recorded elsewhere (work shared by several checks) to this check's evidence. */
  attach(exchanges: readonly RecordedExchange[]): void;
  /**
   * Fails the check about one of its exchanges (recorded or attached), which the reports mark as
   * the failing one and reproduce; `replay` is a command that runs the check's case again (a
   * generated check's seed), shown whole on a line of its own.
   */
  fail(message: string, evidence: { exchange?: RecordedExchange; replay?: string }): never;
}

/** The target the checks of an area, in a suite file, talk to. */
export function targetOf(area: Area, file?: string): TargetConfig {
  return (
    (file ? inject('targetsByFile')?.[file] : undefined) ??
    inject('targetsByArea')?.[area] ??
    inject('target')
  );
}

/**
 * Groups the checks of one spec area (one suite file); JUnit shows the area as the suite, and its
 * tag (src/rules/tags.ts) passes to every check inside. The checks of an area run concurrently (a
 * run is a handful of round trips deep, not the sum of its requests), except those marked sequential.
 */
export function area(name: Area, body: () => void): void {
  describe.concurrent(name, { tags: [areaTag(name)] }, body);
}

/**
 * The suite's own error only where the target gave nothing odd to trip over: a check that crashed
 * on an answer that was no well-formed JSON answer (a 5xx, a redirect, a cut or non-JSON body, no
 * answer at all) was undone by the target, and fails as the target's failure, saying so.
 */
function ownedFailure(failure: CheckFailure, exchanges: readonly RecordedExchange[]): CheckFailure {
  if (failure.kind !== 'suite-error') return failure;
  const odd = exchanges.find((e) => !wellFormed(e));
  if (!odd) return failure;
  const { kind: _kind, ...rest } = failure;
  return {
    ...rest,
    message: `the target's answer could not be read (${odd.method} ${pathOf(odd.url)} -> ${odd.status ?? odd.error ?? 'no answer'}): ${failure.message.replace(/^the suite's own error, not the target's: /, '')}`,
  };
}

function wellFormed(e: RecordedExchange): boolean {
  if (e.status === undefined || e.status >= 500 || (e.status >= 300 && e.status < 400)) return false;
  const body = e.responseBody ?? '';
  if (body === '') return true;
  if (!isJsonMediaType(e.responseHeaders?.['content-type'])) return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

// Not SyntaxError or RangeError: JSON.parse and Date on the target's text throw those, and such a
// failure is the target's answer judged, if clumsily.
const isDefect = (error: unknown) => error instanceof TypeError || error instanceof ReferenceError;

/**
 * A failure as data: ours as our assertions (and the suites' expect, expect.ts) made it; any other
 * error (the client's transport error, a bug) as its message.
 */
export function failureOf(error: unknown): CheckFailure {
  if (error instanceof CheckFailed) return error.failure;
  const message = error instanceof Error ? error.message : String(error);
  // A programming error (reading a field of undefined, calling what is no function) is the suite's
  // own defect, whatever the target sent: the suite must judge any answer, never trip over it.
  // The client's errors (no answer, no token) and assertions are the target's doing.
  if (!(error instanceof TransportError || error instanceof TokenError) && isDefect(error)) {
    return { kind: 'suite-error', message: `the suite's own error, not the target's: ${message}` };
  }
  return { message };
}

/** How much of one check's failure the console shows (vitest's failure block); the reports keep more. */
export const CONSOLE_FAILURE_CAP = 4096;

/**
 * The error vitest prints for a failed check: a fresh one made of the redacted failure, safe for a
 * terminal and a CI log, capped, with no diff, no extra property and (unless verbose) no stack
 * frames into the suite's own code. Nothing of the original error, which holds the target's
 * unredacted words, reaches vitest. `verbose` (the CLI's --verbose, handed over through vitest's
 * provide) keeps the frames, for debugging the suite itself.
 */
export function consoleError(
  failure: CheckFailure,
  original: unknown,
  redact: <T>(v: T) => T,
  verbose = false,
): Error {
  const error = new Error(terminalText(reasonOf(failure), { max: CONSOLE_FAILURE_CAP }));
  error.name = 'AssertionError';
  const frames =
    verbose && original instanceof Error && original.stack
      ? original.stack.split('\n').filter((line) => /^\s+at /.test(line))
      : [];
  error.stack = [
    `${error.name}: ${error.message}`,
    ...frames.map((line) => `    ${terminalText(redact(line), { max: 500 })}`),
  ].join('\n');
  return error;
}

/**
 * The exchange a failure was about: the response its expectation named, or the only exchange.
 * Otherwise it is not known (a check that compares several pages), and nothing is marked.
 */
function failedExchangeOf(
  exchanges: readonly RecordedExchange[],
  about: ApiResponse | undefined,
): number | undefined {
  if (about) {
    for (let i = exchanges.length - 1; i >= 0; i--) {
      if (exchanges[i]?.url === about.url && exchanges[i]?.status === about.status) return i;
    }
  }
  return exchanges.length === 1 ? 0 : undefined;
}

const pathOf = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
};

/**
 * Declares a check: a vitest test named for people ("ID title"), tagged with its rule ids (the tags
 * are what the reporter, --list-rules and --rule read) and, through area(), with its area.
 */
export function check(spec: CheckSpec, body: (t: CheckContext) => Promise<void>): void {
  // The area is the enclosing area()'s tag; a check outside any area is refused when the file loads.
  const areaName = areaOfTags(TestRunner.getCurrentSuite().suite?.tags ?? []);
  if (!areaName) throw new Error(`check ${spec.id} must be declared inside area()`);
  // A mistyped rule id would leave a rule silently uncovered: refuse it when the file loads.
  for (const id of spec.rules) {
    if (!findRule(id)) throw new Error(`check ${spec.id} names unknown rule ${id}`);
  }
  const level = levelOfRules(spec.rules);

  (spec.sequential ? test.sequential : test)(
    `${spec.id} ${spec.title}`,
    { timeout: spec.timeoutMs, tags: spec.rules },
    async (ctx: TestContext) => {
      const config = targetOf(areaName, ctx.task.file.filepath);
      const recorder: ExchangeRecorder = createRecorder(secretValues(config));
      const meta: CheckMeta = {
        checkId: spec.id,
        title: spec.title,
        area: areaName,
        rules: spec.rules,
        level,
        exchanges: [],
        ...(spec.generation ? { generation: spec.generation } : {}),
      };
      ctx.task.meta.conformance = meta;

      const attached: RecordedExchange[] = [];
      let failedAt: RecordedExchange | undefined;
      let skipping = false;
      const skip = (reason: string): never => {
        // A check whose own target answered with a 5xx proved something: never "inconclusive".
        const broken = [...attached, ...recorder.exchanges()].find((e) => serverFailureOf(e));
        if (broken) {
          failedAt = broken;
          ensure(
            false,
            `${broken.method} ${pathOf(broken.url)} ${serverFailureOf(broken)}; the check would have said: ${reason}`,
          );
        }
        skipping = true;
        meta.skipReason = reason;
        return ctx.skip(reason);
      };
      for (const action of spec.guarded ?? []) {
        const verdict = guard(config, action);
        if (!verdict.allowed) skip(verdict.reason);
      }
      if (config.petstoreUnavailable && spec.guarded?.includes('petstore')) skip(config.petstoreUnavailable);
      const control = controlOf(config);
      const t: CheckContext = {
        config,
        client: createApiClient(config, { recorder }),
        newClient: () => createApiClient(config, { recorder }),
        skip,
        needControl: (why) => control ?? skip(`the target offers no control API; ${why}`),
        slow: config.slow,
        attach: (exchanges) => {
          attached.push(...exchanges);
        },
        fail: (message, evidence) => {
          failedAt = evidence.exchange;
          if (evidence.replay !== undefined) meta.replay = evidence.replay;
          ensure(false, message);
          throw new Error(message);
        },
      };

      let failure: { about: ApiResponse | undefined } | undefined;
      try {
        await body(t);
      } catch (error) {
        if (skipping) throw error;
        failure = { about: failedResponseOf(error) };
        // Redacted as a value, before anything cuts, joins or prints it.
        const failed = recorder.redact(
          withRule(ownedFailure(failureOf(error), [...attached, ...recorder.exchanges()]), spec.rules),
        );
        meta.failure = failed;
        if (!failsTheRun(level, config.strict)) {
          // Reported apart: a SHOULD only CONFORMANCE_STRICT=1 makes fail the run, advice never.
          meta.softFailure = reasonOf(failed);
          const kind = level === 'ADVICE' ? 'advice, not the spec' : 'non-strict failure (SHOULD)';
          await ctx.annotate(
            `${kind}: ${terminalText(meta.softFailure, { max: CONSOLE_FAILURE_CAP })}`,
            'warning',
          );
          return;
        }
        throw consoleError(failed, error, recorder.redact, inject('verbose') === true);
      } finally {
        meta.exchanges = [...attached, ...recorder.exchanges()];
        const marked = failedAt ? meta.exchanges.indexOf(failedAt) : -1;
        const index = !failure
          ? undefined
          : marked >= 0
            ? marked
            : failedExchangeOf(meta.exchanges, failure.about);
        if (index !== undefined) meta.failedExchange = index;
      }
    },
  );
}
