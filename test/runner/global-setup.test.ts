// Global setup takes what the conformance CLI handed over through vitest's provide: it neither
// validates the configuration nor probes the target again (no environment variable between them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProvidedContext } from 'vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { HandedOver } from '../../src/checks/meta.ts';
import setup from '../../src/runner/global-setup.ts';

/** A project as global setup sees it: what it provides is kept, what the CLI provided is given. */
function projectWith(handedOver?: HandedOver) {
  const provided: Partial<ProvidedContext> = {};
  const project = {
    getProvidedContext: () => ({ ...(handedOver ? { handedOver } : {}) }) as ProvidedContext,
    provide: (key: keyof ProvidedContext, value: unknown) => {
      Object.assign(provided, { [key]: value });
    },
  };
  return { project: project as unknown as TestProject, provided };
}

// Nothing listens on port 1: a probe of this target finds it unreachable.
const remote: HandedOver['settings'] = {
  target: 'staging',
  apiBaseUrl: 'http://127.0.0.1:1',
  petstoreBaseUrl: 'http://127.0.0.1:1/pets',
  clientId: 'client',
  clientSecret: 'client-secret-value',
  apiKeyId: 'key',
  apiKeySecret: 'api-key-secret-value',
  allowProductionWrites: false,
  requestTimeoutMs: 2000,
  strict: false,
  slow: false,
};

class Exit extends Error {
  readonly code: number | undefined;
  constructor(code: number | undefined) {
    super(`exit ${code}`);
    this.code = code;
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'global-setup-'));
  vi.stubEnv('CONFORMANCE_REPORTS_DIR', dir);
  // A configuration that does not validate: a setup that read it again would stop.
  vi.stubEnv('CONFORMANCE_TARGET', 'nowhere');
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Exit(code === undefined || code === null ? undefined : Number(code));
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe('global setup', () => {
  it('uses the settings and diagnosis the CLI handed over: no validation, no probe', async () => {
    const { project, provided } = projectWith({
      settings: remote,
      diagnosis: { petstoreUnavailable: 'the pet interface did not answer' },
    });
    const teardown = await setup(project);
    await teardown();
    expect(process.exit).not.toHaveBeenCalled();
    expect(provided.target?.apiBaseUrl).toBe('http://127.0.0.1:1');
    expect(provided.target?.petstoreUnavailable).toBe('the pet interface did not answer');
    expect(provided.targetInfo).toEqual({
      name: 'staging',
      apiBaseUrl: 'http://127.0.0.1:1',
      petstoreBaseUrl: 'http://127.0.0.1:1/pets',
      strict: false,
    });
    expect(provided.verbose).toBe(false);
  });

  it("hands the CLI's --verbose on to the checks through provide, not the environment", async () => {
    const { project, provided } = projectWith({ settings: remote, diagnosis: {}, verbose: true });
    await (await setup(project))();
    expect(provided.verbose).toBe(true);
    expect(process.env.CONFORMANCE_VERBOSE).toBeUndefined();
  });

  it('probes the target itself when handed settings without a diagnosis (vitest run directly)', async () => {
    const { project, provided } = projectWith({ settings: remote });
    await expect(setup(project)).rejects.toEqual(new Exit(2));
    expect(provided.target).toBeUndefined();
  });

  it('validates the configuration itself when nothing was handed over', async () => {
    const { project, provided } = projectWith();
    await expect(setup(project)).rejects.toEqual(new Exit(2));
    expect(provided.target).toBeUndefined();
  });
});
