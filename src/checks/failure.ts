// A check failure as data: what was checked, what the spec expects (and the other answers it
// allows), what the target gave, and the target's own words quoted as evidence. Our assertions
// (assertions.ts) create it; check() redacts it as a value, before anything is cut or rendered;
// every report renders it through its own sink's escaping (common/safe-text.ts).
// Pure: no vitest, so the reporter reads the same type.

import type { VerdictKind } from '../../common/verdict-kind.ts';

export { blamesTarget, VERDICT_KINDS, type VerdictKind } from '../../common/verdict-kind.ts';

/**
 * What kind of failure it is, where the maker knows, in the one vocabulary of checks, invariants,
 * generated requests and load findings (common/verdict-kind.ts): a server error (a 5xx, never a
 * refusal or an inconclusive answer), the suite's own error (a defect of this suite, never the
 * target's: the run ends with exit 2), a status, schema, content, missing refusal or relation.
 * Absent: the target broke the check's expectation.
 */
export type FailureKind = VerdictKind;

export interface CheckFailure {
  kind?: FailureKind;
  /** The failure in our words: "page 2: expected 200, got 404 (application/json)". */
  message: string;
  /** What was expected, when the assertion knows it ("2xx", "a JSON error body"). */
  expected?: string;
  /** What the target gave ("404 (application/json)"). */
  actual?: string;
  /** The answers the spec allows, where it allows several. */
  acceptable?: string[];
  /** The catalogue rule the failed expectation checks, when the assertion names one. */
  rule?: string;
  /** Target text shown as evidence (a body): whole here, cut by each sink after redaction. */
  quote?: string;
}

/** How much of the target's quoted text a reason carries (the exchange in the reports has more). */
export const QUOTE_IN_REASON = 300;

/** The failure as one reason: its message, then the start of the quote. Not yet made safe for any sink. */
export function reasonOf(failure: CheckFailure): string {
  if (failure.quote === undefined) return failure.message;
  const quote = failure.quote.replace(/\s+/g, ' ').trim();
  const cut = quote.length > QUOTE_IN_REASON ? `${quote.slice(0, QUOTE_IN_REASON)}…` : quote;
  return `${failure.message}: ${cut || '(empty body)'}`;
}

/**
 * The failure with its rule: the one the assertion named, else the check's own when it proves one
 * rule (a check of several rules cannot tell which of them its failed expectation was about).
 */
export function withRule(failure: CheckFailure, rules: readonly string[]): CheckFailure {
  if (failure.rule !== undefined || rules.length !== 1) return failure;
  return { ...failure, rule: rules[0] as string };
}

/** The error our assertions throw: vitest sees an assertion error, the reporter the failure. */
export class CheckFailed extends Error {
  readonly failure: CheckFailure;
  /** The response the failed expectation was about (not reported: it is not redacted). */
  readonly about: unknown;

  constructor(failure: CheckFailure, about?: unknown) {
    super(reasonOf(failure));
    this.name = 'AssertionError';
    this.failure = failure;
    this.about = about;
  }
}
