// Resolves the target once per conformance run and hands it to every suite. For the local target
// it starts the embedded reference server (control on, ephemeral port) and stops it afterwards.
import type { TestProject } from 'vitest/node';
import { formatProblems, loadSettings, resolveTarget, type TargetConfig } from '../config/index.ts';
import { type ReferenceServerOptions, startReferenceServer } from '../reference/index.ts';
import { unreachableReason } from './preflight.ts';
import '../checks/meta.ts';

declare module 'vitest' {
  interface ProvidedContext {
    referenceOptions?: ReferenceServerOptions;
  }
}

/**
 * Server options a variant run provides (src/runner/variants.ts): such a run is always against
 * the embedded server, whatever .env says.
 */
function variantOptions(project: TestProject): ReferenceServerOptions | undefined {
  return (project.config.provide as { referenceOptions?: ReferenceServerOptions } | undefined)
    ?.referenceOptions;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const variant = variantOptions(project);
  const loaded = variant
    ? loadSettings({ ...process.env, CONFORMANCE_TARGET: 'local' }, { envFile: false })
    : loadSettings();
  if (!loaded.ok) {
    // Stop before any request: the message lists every problem, never a secret value.
    process.stderr.write(`${formatProblems(loaded.problems)}\n`);
    process.exit(2);
  }
  const settings = loaded.settings;
  const server =
    settings.target === 'local' ? await startReferenceServer({ ...variant, control: true }) : undefined;
  const config: TargetConfig = resolveTarget(settings, server);
  if (!server) {
    const reason = await unreachableReason(config);
    if (reason) {
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
