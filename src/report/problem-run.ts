// The reports of a run that stopped before any check (the target cannot be reached): the same four
// files as a finished run, with the reason as a run problem and exit code 2, so a nightly job's
// artifact and step summary say why nothing was checked.
import { fileURLToPath } from 'node:url';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { buildResults } from './results.ts';
import { toolOf } from './tool.ts';
import type { ConformanceResults } from './types.ts';
import { writeReports } from './write-reports.ts';

export interface ProblemRun {
  dir: string;
  target: ConformanceResults['target'];
  strict: boolean;
  startedAt: Date;
  problem: string;
  secrets: readonly string[];
}

export async function writeProblemRun(run: ProblemRun): Promise<ConformanceResults> {
  const finishedAt = new Date();
  const built = buildResults({
    // The project's own package.json, wherever the command was started.
    tool: toolOf(fileURLToPath(new URL('../../', import.meta.url))),
    target: run.target,
    startedAt: run.startedAt,
    finishedAt,
    strict: run.strict,
    checks: [],
    coverage: new Map(),
    areas: [],
    filtered: false,
    problems: [run.problem],
  });
  const scrubber = createSecretFilter(run.secrets);
  // The same writer as a finished run's: the problem is one error case, so CI shows the run failed.
  return writeReports(run.dir, built, scrubber);
}
