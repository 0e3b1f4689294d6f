// Before any check runs against a remote target: is the setup right (setup-diagnosis.ts)? A setup
// problem ends the run with exit code 2 and one line, the reports saying so, instead of every check
// failing with the same cause; an unreachable pet interface only skips the pet checks.
import { createSecretFilter } from '../../common/secret-filter.ts';
import { createApiClient, createRecorder } from '../client/index.ts';
import { learnedValues } from '../client/learned-secrets.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';
import { writeProblemRun } from '../report/problem-run.ts';
import { reportsDir } from '../report/reports-dir.ts';
import { diagnoseSetup, type SetupDiagnosis } from './setup-diagnosis.ts';

/**
 * Diagnoses a remote target; on a setup problem, writes the reports of a run that checked nothing
 * (the problem as its reason). The caller prints `problem` and exits 2.
 */
export async function preflight(config: TargetConfig, startedAt: Date): Promise<SetupDiagnosis> {
  // Its requests are the run's too: recorded, so the invariants judge them with every check's (a
  // 5xx to the first request only, a cold start, would otherwise pass unseen).
  const recorder = createRecorder(secretValues(config));
  const found = await diagnoseSetup(createApiClient(config, { recorder }), config);
  // The diagnosis quotes the target (an error code): redacted as a value before anyone prints it.
  const diagnosis: SetupDiagnosis = {
    ...createSecretFilter([...secretValues(config), ...learnedValues()]).deep(found),
    exchanges: recorder.exchanges(),
  };
  if (!diagnosis.problem) return diagnosis;
  await writeProblemRun({
    dir: reportsDir(),
    target: { name: config.target, apiBaseUrl: config.apiBaseUrl, petstoreBaseUrl: config.petstoreBaseUrl },
    strict: config.strict,
    startedAt,
    problem: diagnosis.problem,
    secrets: secretValues(config),
  }).catch((error: unknown) => {
    process.stderr.write(`conformance: could not write the reports: ${(error as Error).message}\n`);
  });
  return diagnosis;
}
