// Resolves the target once per conformance run and hands it to every suite. For the local target
// it starts the embedded reference server (control on, ephemeral port) and stops it afterwards.
import type { TestProject } from 'vitest/node';
import type { HandedOver } from '../checks/meta.ts';
import {
  formatProblems,
  loadSettings,
  resolveTarget,
  type TargetConfig,
  type TargetSettings,
} from '../config/index.ts';
import { startReferenceServer } from '../reference/index.ts';
import { preflight } from './preflight.ts';
import type { SetupDiagnosis } from './setup-diagnosis.ts';
import '../checks/meta.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const startedAt = new Date();
  // The conformance CLI has validated (and diagnosed) already; `vitest` run directly has not.
  const handedOver: HandedOver | undefined = project.getProvidedContext().handedOver;
  const settings = handedOver?.settings ?? validSettings();
  const server = settings.target === 'local' ? await startReferenceServer({ control: true }) : undefined;
  // Every check that needs the control API skips without it, saying why, and the run still passes:
  // against the embedded server, which is always started with it, its absence is a broken setup
  // (a mutant that dropped the option went unnoticed), never a target without control.
  if (server && !server.controlUrl) {
    process.stderr.write('conformance: the embedded reference server came up without its control API\n');
    process.exit(2);
  }
  const config: TargetConfig = resolveTarget(settings, server);
  if (!server) {
    const diagnosis: SetupDiagnosis = handedOver?.diagnosis ?? (await preflight(config, startedAt));
    if (diagnosis.problem) {
      process.stderr.write(`${diagnosis.problem}\n`);
      process.exit(2);
    }
    if (diagnosis.petstoreUnavailable) config.petstoreUnavailable = diagnosis.petstoreUnavailable;
    project.provide('setupExchanges', diagnosis.exchanges ?? []);
  }
  project.provide('target', config);
  project.provide('verbose', handedOver?.verbose === true);
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

/** The settings of .env and the environment; a problem stops the run before any request. */
function validSettings(): TargetSettings {
  const loaded = loadSettings();
  if (loaded.ok) return loaded.settings;
  // The message lists every problem, never a secret value.
  process.stderr.write(`${formatProblems(loaded.problems)}\n`);
  process.exit(2);
}
