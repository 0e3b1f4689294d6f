// The reports of a run that stopped before any check (the target cannot be reached): the same four
// files as a finished run, with the reason as a run problem and exit code 2, so a nightly job's
// artifact and step summary say why nothing was checked.
import { join } from 'node:path';
import { createSecretFilter } from '../../load/lib/shared/secret-filter.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { buildResults } from './results.ts';
import { toolOf } from './tool.ts';
import type { ConformanceResults } from './types.ts';
import { REPORT_FILES, rotateReports, writeReports } from './write-reports.ts';

export interface ProblemRun {
  dir: string;
  target: ConformanceResults['target'];
  strict: boolean;
  startedAt: Date;
  problem: string;
  secrets: readonly string[];
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One failed test case that names the problem, so CI shows the run as failed, not as empty. */
function junitOf(problem: string, seconds: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<testsuites name="payments-crm conformance" tests="1" failures="0" errors="1" time="${seconds}">`,
    `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="${seconds}">`,
    `    <testcase classname="run" name="the target can be reached" time="${seconds}">`,
    `      <error message="${xml(problem)}" type="RunProblem"/>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export async function writeProblemRun(run: ProblemRun): Promise<ConformanceResults> {
  const finishedAt = new Date();
  const built = buildResults({
    tool: toolOf(process.cwd()),
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
  await rotateReports(run.dir);
  const results = await writeReports(run.dir, built, scrubber);
  const seconds = (results.durationMs / 1000).toFixed(3);
  await writeFileAtomic(join(run.dir, REPORT_FILES.junit), scrubber.text(junitOf(run.problem, seconds)));
  return results;
}
