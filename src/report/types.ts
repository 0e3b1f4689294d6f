// The shape of reports/results.json (docs/architecture.md "Results"; schemas/results.schema.json).
import type { InterruptExitCode } from '../../common/exit-codes.ts';
import type { CheckFailure } from '../checks/failure.ts';
import type { RecordedExchange } from '../client/index.ts';
import type { TargetName } from '../config/index.ts';
import type { Area, RuleLevel } from '../rules/catalogue.ts';

export type CheckStatus = 'passed' | 'failed' | 'skipped';
export type RuleStatus = CheckStatus | 'uncovered';
/** 130 and 143: interrupted by SIGINT or SIGTERM (128 + the signal number, as shells report it). */
export type ExitCode = 0 | 1 | 2 | InterruptExitCode;

export interface CheckResult {
  id: string;
  title: string;
  area: Area;
  rules: string[];
  level: RuleLevel;
  status: CheckStatus;
  /** Failed, but only SHOULD rules and not strict: does not fail the run. */
  nonStrict?: boolean;
  /** Failure message or skip reason. */
  reason?: string;
  /** Index in exchanges of the exchange the failing expectation was about. */
  failedExchange?: number;
  /** The failure as data (its quote cut to 4 KiB), as the check's assertions made it. */
  failure?: CheckFailure;
  /** A command that runs the failing case again (a generated check's seed and rule). */
  replay?: string;
  durationMs: number;
  exchanges: RecordedExchange[];
}

export interface RuleResult {
  id: string;
  area: Area;
  level: RuleLevel;
  text: string;
  section: string;
  status: RuleStatus;
  /** Ids of the checks of this run that cover the rule. */
  checks: string[];
  /** Why the status is what it is when no check of this run decides it (client-scoped rules). */
  note?: string;
}

export interface Totals {
  /** failed counts every failed check; nonStrict those of them that are non-strict SHOULD failures. */
  checks: { passed: number; failed: number; nonStrict: number; skipped: number };
  rules: { passed: number; failed: number; skipped: number; uncovered: number };
  mustFailures: number;
  shouldFailures: number;
  /** Failed advice (a convention the spec does not state): reported apart, never failing the run. */
  adviceFailures: number;
}

/** A check whose status differs from the previous run's. */
export interface StatusChange {
  id: string;
  title: string;
  area: Area;
  from: CheckStatus | 'absent';
  to: CheckStatus | 'absent';
}

export interface History {
  /** The file compared with when it was pinned (--baseline FILE); else the target's last complete run. */
  pinned?: string;
  previousStartedAt: string;
  previousExitCode: ExitCode;
  changes: StatusChange[];
}

/** How many rules of the run a check decided, and for each other rule what would check it. */
export interface Coverage {
  rules: number;
  checked: number;
  unchecked: { id: string; level: RuleLevel; why: string }[];
}

export interface ConformanceResults {
  tool: { name: string; version: string };
  target: { name: TargetName; apiBaseUrl: string; petstoreBaseUrl: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  strict: boolean;
  /** What the run covered: the areas it collected, and whether filters left checks out. */
  scope: {
    areas: Area[];
    filtered: boolean;
    /** The selection the run was asked for (`--check PAG-*`, `--last-failed`), when it was filtered. */
    selection?: string;
  };
  checks: CheckResult[];
  rules: RuleResult[];
  totals: Totals;
  coverage: Coverage;
  /** Run-level problems (unhandled errors, a suite that could not load, no check ran): exit 2. */
  problems: string[];
  history?: History;
  /**
   * The generated requests' seed and budget, and the command that runs the same requests again
   * (absent when no generated check ran: nothing was drawn).
   */
  generation?: { seed: number; budget: number; replay: string };
  exitCode: ExitCode;
}
