// What a conformance test carries to the reporter, through vitest's task meta; and what the CLI and
// global setup hand the checks through vitest's provide (ProvidedContext below).
import type { RecordedExchange } from '../client/index.ts';
import type { TargetConfig, TargetSettings } from '../config/index.ts';
import type { Area, RuleLevel } from '../rules/catalogue.ts';
import type { CheckFailure } from './failure.ts';

/** The seed and budget of a run's generated requests: the same two replay the run's requests. */
export interface Generation {
  seed: number;
  budget: number;
}

export interface CheckMeta {
  checkId: string;
  title: string;
  area: Area;
  rules: string[];
  /** SHOULD when every rule the check covers is a SHOULD. */
  level: RuleLevel;
  exchanges: RecordedExchange[];
  skipReason?: string;
  /** A SHOULD check that failed while not strict: vitest shows it passed, the report says failed (non-strict). */
  softFailure?: string;
  /** Index in exchanges of the exchange the failing expectation was about. */
  failedExchange?: number;
  /** A command that runs the failing case again (a generated check's seed and rule). */
  replay?: string;
  /** The failure as data, its secrets redacted: what every report renders (failure.ts). */
  failure?: CheckFailure;
  /** A generated check's seed and budget (the reporter names them once for the run). */
  generation?: Generation;
}

/** What the reporter shows of the target: never a credential. */
export interface TargetInfo {
  name: TargetConfig['target'];
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  strict: boolean;
}

/**
 * What the conformance CLI has already done before vitest starts, handed to global setup with
 * vitest's provide (not through the environment): the validated settings and, for a remote target,
 * the setup diagnosis. Global setup then neither validates nor probes again.
 */
export interface HandedOver {
  settings: TargetSettings;
  /** Present when the CLI diagnosed a remote target (it ends the run itself on a problem). */
  diagnosis?: { petstoreUnavailable?: string; exchanges?: RecordedExchange[] };
  /** --verbose: check failures keep their stack frames (debugging the suite itself). */
  verbose?: boolean;
  /** What the run was asked to select (`--check PAG-*`), as the reports name it. */
  selection?: string;
  /** The check ids and globs selected by id: only the invariants among them are reported. */
  selectedChecks?: string[];
  /** --baseline FILE: the results file to compare with, in place of the last complete run. */
  baseline?: string;
  /** The reports folder whose history/ holds the comparison point (a selection reports to filtered/). */
  historyDir?: string;
  /** --har FILE: where the run's exchanges go as HAR 1.2 (src/report/har.ts). */
  har?: string;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: CheckMeta;
  }
  interface ProvidedContext {
    handedOver?: HandedOver;
    /** The CLI's --verbose, for check() in the workers (global setup provides it from handedOver). */
    verbose?: boolean;
    target: TargetConfig;
    targetInfo: TargetInfo;
    /** The setup diagnosis's requests to a remote target (src/runner/preflight.ts), judged by the invariants. */
    setupExchanges?: RecordedExchange[];
    /**
     * Per-area targets that override `target`: self-tests give one area's checks a server of their
     * own (test/config/provide-target.ts). The fault matrix uses targetsByFile.
     */
    targetsByArea?: Partial<Record<Area, TargetConfig>>;
    /**
     * Per-file targets, by module id: the fault matrix runs one suite several times in one run as
     * `suites/x.test.ts?variant=N`, each copy against its own server.
     */
    targetsByFile?: Record<string, TargetConfig>;
  }
}
