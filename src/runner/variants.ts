// Runs the conformance suites against several reference servers in one vitest run, one project per
// server variant (a fault, or other choices where the spec is silent). The fault matrix and the
// tolerance check are built on it. Always local: a variant never reaches a configured target.
import { createVitest } from 'vitest/node';
import type { ReferenceServerOptions } from '../reference/index.ts';
import '../checks/meta.ts';

export interface Variant {
  name: string;
  reference: ReferenceServerOptions;
  /** Suite files to run, relative to the project root (e.g. suites/errors.test.ts). */
  files: string[];
}

export interface CheckOutcome {
  id: string;
  rules: string[];
  state: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped: the first line of the error or the skip note. */
  reason?: string;
}

export interface VariantOutcome {
  name: string;
  checks: CheckOutcome[];
}

export async function runVariants(variants: readonly Variant[]): Promise<VariantOutcome[]> {
  const vitest = await createVitest(
    'test',
    { config: false, watch: false, reporters: [] },
    {
      test: {
        projects: variants.map((variant) => ({
          test: {
            name: variant.name,
            include: variant.files,
            globalSetup: ['src/runner/global-setup.ts'],
            testTimeout: 30_000,
            provide: { referenceOptions: variant.reference },
          },
        })),
      },
    },
  );
  try {
    const { testModules } = await vitest.start();
    const byVariant = new Map<string, CheckOutcome[]>(variants.map((v) => [v.name, []]));
    for (const module of testModules) {
      const outcomes = byVariant.get(module.project.name);
      if (!outcomes) continue;
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
        // The file itself failed to load: that is a failure of every check it would hold.
        outcomes.push({
          id: module.moduleId,
          rules: [],
          state: 'failed',
          reason: module.errors()[0]?.message,
        });
      }
      for (const test of module.children.allTests()) {
        const meta = test.meta().conformance;
        const result = test.result();
        const soft = meta?.softFailure;
        const state = soft ? 'failed' : result.state === 'pending' ? 'skipped' : result.state;
        const reason =
          soft ??
          (result.state === 'failed' ? result.errors?.[0]?.message?.split('\n')[0] : undefined) ??
          (result.state === 'skipped' ? result.note : undefined);
        outcomes.push({
          id: meta?.checkId ?? test.name,
          rules: meta?.rules ?? [],
          state,
          ...(reason ? { reason } : {}),
        });
      }
    }
    return variants.map((v) => ({ name: v.name, checks: byVariant.get(v.name) ?? [] }));
  } finally {
    await vitest.close();
  }
}
