// Runs the conformance suites against several reference servers (a fault each, or other choices
// where the spec is silent) in one vitest instance. Always local: a variant never reaches a
// configured target.
//
// Speed: a vitest run costs a worker start and the suites' imports (~0.5 s here), far more than a
// suite's checks. So variants that need one area's suite each are packed into rounds: a round
// gives every area's suite its own server (provided per area, see targetOf in src/checks), so one
// run checks up to one fault per area without two faults ever meeting the same suite.
import { resolve } from 'node:path';
import { createVitest, type TestModule, type TestProject } from 'vitest/node';
import { loadSettings, resolveTarget, type TargetConfig } from '../config/index.ts';
import {
  type ReferenceServerOptions,
  type RunningReferenceServer,
  startReferenceServer,
} from '../reference/index.ts';
import { AREAS, type Area } from '../rules/catalogue.ts';
import '../checks/meta.ts';

export interface Variant {
  name: string;
  reference: ReferenceServerOptions;
  /** The areas whose suites run against it; all of them when absent. */
  areas?: readonly Area[];
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

/** One vitest run: each area's suite against the server of one variant. */
type Round = Map<Area, Variant>;

/** Packs variants into as few rounds as possible, no area twice in a round. */
export function planRounds(variants: readonly Variant[]): Round[] {
  const rounds: Round[] = [];
  for (const variant of variants) {
    const areas = variant.areas ?? AREAS;
    let round = rounds.find((r) => areas.every((a) => !r.has(a)));
    if (!round) {
      round = new Map();
      rounds.push(round);
    }
    for (const a of areas) round.set(a, variant);
  }
  return rounds;
}

function outcomesOf(module: TestModule): CheckOutcome[] {
  const tests = [...module.children.allTests()];
  if (module.state() === 'failed' && tests.length === 0) {
    // The file itself failed to load: that is a failure of every check it would hold.
    return [{ id: module.moduleId, rules: [], state: 'failed', reason: module.errors()[0]?.message }];
  }
  return tests.map((test) => {
    const meta = test.meta().conformance;
    const result = test.result();
    const soft = meta?.softFailure;
    const state = soft ? 'failed' : result.state === 'pending' ? 'skipped' : result.state;
    const reason =
      soft ??
      (result.state === 'failed' ? result.errors?.[0]?.message?.split('\n')[0] : undefined) ??
      (result.state === 'skipped' ? result.note : undefined);
    return { id: meta?.checkId ?? test.name, rules: meta?.rules ?? [], state, ...(reason ? { reason } : {}) };
  });
}

const suiteFile = (area: Area) => resolve(`suites/${area}.test.ts`);

async function runRound(
  project: TestProject,
  run: (project: TestProject, files: string[]) => Promise<readonly TestModule[]>,
  round: Round,
  byVariant: Map<string, CheckOutcome[]>,
): Promise<void> {
  const settings = loadSettings({ ...process.env, CONFORMANCE_TARGET: 'local' }, { envFile: false });
  if (!settings.ok) throw new Error('the local target cannot be configured');
  const variants = [...new Set(round.values())];
  const servers = new Map<Variant, RunningReferenceServer>();
  try {
    for (const v of variants) servers.set(v, await startReferenceServer({ ...v.reference, control: true }));
    const targets: Partial<Record<Area, TargetConfig>> = {};
    for (const [area, v] of round) {
      const server = servers.get(v);
      if (server) targets[area] = resolveTarget(settings.settings, server);
    }
    const first = Object.values(targets)[0];
    if (!first) return;
    project.provide('target', first);
    project.provide('targetsByArea', targets);
    const modules = await run(project, [...round.keys()].map(suiteFile));
    for (const module of modules) {
      const area = [...round.keys()].find((a) => suiteFile(a) === module.moduleId);
      const variant = area ? round.get(area) : undefined;
      if (variant) byVariant.get(variant.name)?.push(...outcomesOf(module));
    }
  } finally {
    await Promise.all([...servers.values()].map((s) => s.close()));
  }
}

/** One vitest instance working through its share of the rounds, one run after another. */
async function runLane(rounds: readonly Round[], byVariant: Map<string, CheckOutcome[]>): Promise<void> {
  const vitest = await createVitest(
    'test',
    // One warm worker per run, without isolation: the suites keep no global state between files,
    // and a worker's imports cost more than a suite's checks.
    { config: false, watch: false, reporters: [{}], maxWorkers: 1 },
    {
      test: {
        projects: [
          {
            test: {
              name: 'variants',
              include: ['suites/*.test.ts'],
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
    await vitest.standalone();
    const project = vitest.projects[0];
    if (!project) throw new Error('no vitest project for the variants');
    const run = async (p: TestProject, files: string[]) =>
      (await vitest.runTestSpecifications(files.map((f) => p.createSpecification(f)))).testModules;
    for (const round of rounds) await runRound(project, run, round, byVariant);
  } finally {
    await vitest.close();
  }
}

/** Two lanes: one run waits on sockets while the other uses the CPU. */
const LANES = 2;

export async function runVariants(variants: readonly Variant[]): Promise<VariantOutcome[]> {
  const byVariant = new Map<string, CheckOutcome[]>(variants.map((v) => [v.name, []]));
  const rounds = planRounds(variants);
  const lanes = Array.from({ length: Math.min(LANES, rounds.length) }, (_, lane) =>
    rounds.filter((_, i) => i % LANES === lane),
  );
  await Promise.all(lanes.map((lane) => runLane(lane, byVariant)));
  return variants.map((v) => ({ name: v.name, checks: byVariant.get(v.name) ?? [] }));
}
