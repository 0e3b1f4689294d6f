// Runs the conformance suites against several reference servers (a fault each, or other choices
// where the spec is silent) in one vitest run. Always local: a variant never reaches a configured
// target.
//
// Speed: a vitest worker's start and the suites' imports cost more than a suite's checks. So every
// variant's suites run in ONE run on two warm workers: each copy of a suite is the same file under
// its own module id (`suites/errors.test.ts?variant=3`), which vite evaluates afresh, and each copy
// is given its own server (targetsByFile, read by check()). No two variants ever share a server.
import { resolve } from 'node:path';
import { createVitest, type TestModule } from 'vitest/node';
import { invariantResults } from '../checks/invariants.ts';
import { loadSettings, resolveTarget, type TargetConfig } from '../config/index.ts';
import {
  CHOICES,
  DEFAULT_RATE_LIMIT,
  type ReferenceServerOptions,
  type RunningReferenceServer,
  startReferenceServer,
} from '../reference/index.ts';
import { outcomeOf } from '../report/outcome.ts';
import { AREAS, type Area } from '../rules/catalogue.ts';
import { conformanceTags } from '../rules/tags.ts';
import '../checks/meta.ts';
import { firstLine } from '../client/errors.ts';
import { PROJECT_ROOT } from './project-root.ts';

export interface Variant {
  name: string;
  reference: ReferenceServerOptions;
  /** The areas whose suites run against it; all of them when absent. */
  areas?: readonly Area[];
}

/**
 * Conformant servers that answer otherwise where the spec says "not shown": every one must pass the
 * whole suite (`npm run faults` runs them as tolerance rows). One row per other choice of the
 * reference server (CHOICES in src/reference/options.ts; docs/reference-server.md names the spec's
 * silence each answers), plus other sizes and statuses.
 */
export const TOLERANCE_VARIANTS: readonly Variant[] = [
  { name: 'other-choices:session-expired-419', reference: { sessionExpiredStatus: 419 } },
  {
    name: 'other-choices:extra-fields-73-customers',
    reference: { extraFields: true, customers: 73 },
  },
  {
    name: 'other-choices:one-page-403-expiry',
    reference: { customers: 12, sessionExpiredStatus: 403 },
  },
  { name: 'other-choices:no-customers', reference: { customers: 0 } },
  // How many pets exist is not shown: a store holding only the pets the run creates.
  { name: 'other-choices:no-seeded-pets', reference: { pets: 0 } },
  // Rate limit values and the limiter's kind: not shown. The default is a fixed window; these
  // limit every key (the tests' throwaway keys too) as a sliding window or a token bucket.
  ...(['sliding-window', 'token-bucket'] as const).map((shape) => ({
    name: `other-choices:rate-limiter=${shape}`,
    reference: { rateLimit: { ...DEFAULT_RATE_LIMIT, shape } },
  })),
  // Every other answer of every open choice the generated requests touch (the defaults are the
  // clean row's): one row each, so none is left out when a choice is added.
  ...Object.entries(CHOICES).flatMap(([name, choice]) =>
    choice.values.slice(1).map((value) => ({
      name: `other-choices:${name}=${value}`,
      reference: { choices: { [name]: value } },
    })),
  ),
];

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

function outcomesOf(module: TestModule): CheckOutcome[] {
  const tests = [...module.children.allTests()];
  if (module.state() === 'failed' && tests.length === 0) {
    // The file itself failed to load: that is a failure of every check it would hold.
    return [{ id: module.moduleId, rules: [], state: 'failed', reason: module.errors()[0]?.message }];
  }
  const outcomes: CheckOutcome[] = [];
  for (const test of tests) {
    // The one outcome function decides, as for the reports: a non-strict SHOULD failure is failed.
    const outcome = outcomeOf(test);
    if (!outcome) continue;
    const meta = test.meta().conformance;
    const state = outcome.kind === 'not-run' ? 'skipped' : outcome.kind;
    const reason = outcome.kind === 'passed' ? undefined : firstLine(outcome.reason);
    outcomes.push({
      id: meta?.checkId ?? test.name,
      rules: meta?.rules ?? [],
      state,
      ...(reason ? { reason } : {}),
    });
  }
  return outcomes;
}

/** The checks of a module with the exchanges they recorded. */
function evidenceOf(module: TestModule) {
  return [...module.children.allTests()].flatMap((test) => {
    const meta = test.meta().conformance;
    return meta ? [{ id: meta.checkId, rules: meta.rules, area: meta.area, exchanges: meta.exchanges }] : [];
  });
}

/** The module id of one variant's copy of an area's suite. */
// From the project's folder, not the working directory (npm run faults started elsewhere, issue 33).
const copyOf = (area: Area, variant: number) =>
  `${resolve(PROJECT_ROOT, `suites/${area}.test.ts`)}?variant=${variant}`;

export async function runVariants(variants: readonly Variant[]): Promise<VariantOutcome[]> {
  const settings = loadSettings({ ...process.env, CONFORMANCE_TARGET: 'local' }, { envFile: false });
  if (!settings.ok) throw new Error('the local target cannot be configured');
  const servers: RunningReferenceServer[] = [];
  const targetsByFile: Record<string, TargetConfig> = {};
  const owner = new Map<string, string>();
  const vitest = await createVitest(
    'test',
    // Two workers, no isolation: the suites keep no global state between files.
    { config: false, root: PROJECT_ROOT, watch: false, reporters: [{}], maxWorkers: 2 },
    {
      test: {
        projects: [
          {
            test: {
              name: 'variants',
              include: ['suites/*.test.ts'],
              tags: conformanceTags(),
              testTimeout: 30_000,
              pool: 'threads',
              isolate: false,
            },
          },
        ],
      },
    },
  );
  try {
    for (const [i, variant] of variants.entries()) {
      const server = await startReferenceServer({ ...variant.reference, control: true });
      servers.push(server);
      const target = resolveTarget(settings.settings, server);
      for (const area of variant.areas ?? AREAS) {
        targetsByFile[copyOf(area, i)] = target;
        owner.set(copyOf(area, i), variant.name);
      }
    }
    await vitest.standalone();
    const project = vitest.projects[0];
    if (!project) throw new Error('no vitest project for the variants');
    const [first] = Object.values(targetsByFile);
    if (first) project.provide('target', first);
    project.provide('targetsByFile', targetsByFile);
    const { testModules } = await vitest.runTestSpecifications(
      Object.keys(targetsByFile).map((id) => project.createSpecification(id)),
    );
    const byVariant = new Map<string, CheckOutcome[]>(variants.map((v) => [v.name, []]));
    const seen = new Map<string, Parameters<typeof invariantResults>[0][number][]>();
    for (const module of testModules) {
      const name = owner.get(module.moduleId);
      if (!name) continue;
      byVariant.get(name)?.push(...outcomesOf(module));
      seen.set(name, [...(seen.get(name) ?? []), ...evidenceOf(module)]);
    }
    // The invariants over each variant's exchanges, as the reporter judges a run (issue 24).
    for (const [i, variant] of variants.entries()) {
      const target = targetsByFile[copyOf(variant.areas?.[0] ?? AREAS[0], i)];
      if (!target) continue;
      for (const r of invariantResults(seen.get(variant.name) ?? [], target, true)) {
        byVariant.get(variant.name)?.push({
          id: r.id,
          rules: r.rules,
          state: r.status,
          ...(r.reason ? { reason: r.reason } : {}),
        });
      }
    }
    return variants.map((v) => ({ name: v.name, checks: byVariant.get(v.name) ?? [] }));
  } finally {
    await vitest.close();
    await Promise.all(servers.map((s) => s.close()));
  }
}
