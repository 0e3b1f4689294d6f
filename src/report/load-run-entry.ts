// One load run as the release page (index.html) lists it, and the target it went against. Kept
// apart from load-runs.ts, which renders index.html again when a load run ends: html.ts reads
// these types, and importing them from load-runs.ts made the two modules import each other.
import type { Figure, RunVerdict, Verdict } from '../../load/lib/summary/report.ts';

export interface RunTarget {
  name: string;
  apiBaseUrl: string;
}

/** One load run as index.html lists it; file names are relative to the reports folder. */
export interface LoadRunEntry {
  script: string;
  verdict: RunVerdict;
  verdictReason?: string;
  finishedAt: string;
  durationMs: number;
  target: RunTarget;
  markdown: string;
  /** k6's dashboard report, when k6 wrote one. */
  dashboard?: string;
  figures: Figure[];
  verdicts: Verdict[];
  /** The probe's analysis (the rate-limit probe's timeline draws the limiter). */
  analysis?: Record<string, unknown>;
}
