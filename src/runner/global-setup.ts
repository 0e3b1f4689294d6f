// Resolves the target once per conformance run and hands it to every suite. For the local target
// it starts the embedded reference server (control on, ephemeral port) and stops it afterwards.
import type { TestProject } from 'vitest/node';
import {
  formatProblems,
  loadSettings,
  resolveTarget,
  secretValues,
  type TargetConfig,
} from '../config/index.ts';
import { startReferenceServer } from '../reference/index.ts';
import { writeProblemRun } from '../report/problem-run.ts';
import { reportsDir } from '../report/reports-dir.ts';
import { unreachableReason } from './preflight.ts';
import '../checks/meta.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const startedAt = new Date();
  const loaded = loadSettings();
  if (!loaded.ok) {
    // Stop before any request: the message lists every problem, never a secret value.
    process.stderr.write(`${formatProblems(loaded.problems)}\n`);
    process.exit(2);
  }
  const settings = loaded.settings;
  const server = settings.target === 'local' ? await startReferenceServer({ control: true }) : undefined;
  const config: TargetConfig = resolveTarget(settings, server);
  if (!server) {
    const reason = await unreachableReason(config);
    if (reason) {
      // Nothing can be checked: say why in one line, and still leave the reports behind.
      await writeProblemRun({
        dir: reportsDir(),
        target: {
          name: config.target,
          apiBaseUrl: config.apiBaseUrl,
          petstoreBaseUrl: config.petstoreBaseUrl,
        },
        strict: config.strict,
        startedAt,
        problem: reason,
        secrets: secretValues(config),
      }).catch((error: unknown) => {
        process.stderr.write(`conformance: could not write the reports: ${(error as Error).message}\n`);
      });
      process.stderr.write(`${reason}\n`);
      process.exit(2);
    }
  }
  project.provide('target', config);
  project.provide('targetInfo', {
    name: config.target,
    apiBaseUrl: config.apiBaseUrl,
    petstoreBaseUrl: config.petstoreBaseUrl,
    strict: config.strict,
  });
  return async () => {
    await server?.close();
  };
}
