// Generated requests: every operation of schemas/ probed with schema-made valid requests and with
// invalid ones that break one constraint each (fast-check: seeded, shrunk to the smallest failing
// request). No request may be answered with a 5xx (GNR-01); valid ones are answered as the spec
// allows (GNR-02); ones that break a constraint the spec shows are refused, the others (edges, and
// breaks of our choices where the spec is silent) tolerated (GNR-03); a created pet reads back
// equal (GNR-04).
// CONFORMANCE_GENERATED sets the request budget (0 = off), CONFORMANCE_SEED replays a run.
import { aliveChecks } from '../src/checks/alive.ts';
import { area, check } from '../src/checks/define.ts';
import type { GuardedAction } from '../src/config/index.ts';
import { operations } from '../src/contract/index.ts';
import { spreadBudget } from '../src/generate/budget.ts';
import { mutationsOf } from '../src/generate/mutations.ts';
import { replayCommand } from '../src/generate/replay.ts';
import { runGenerated } from '../src/generate/run.ts';
import { requestSchemas } from '../src/generate/schema.ts';
import { generationSettings } from '../src/generate/settings.ts';

const loaded = generationSettings();
if (!loaded.ok) throw new Error(loaded.problem);
const { seed, budget } = loaded.settings;

const ops = operations();
const plan = spreadBudget(
  budget,
  seed,
  ops.map((op) => ({
    operationId: op.operationId,
    // A create is read back: two requests a probe.
    validCost: op.operationId === 'createPets' ? 2 : 1,
    mutations: mutationsOf(requestSchemas(op.operationId)).map((m) => m.id),
  })),
);
if (budget > 0) {
  console.info(
    `generated requests: seed ${seed}, budget ${budget} (${plan.total} planned); CONFORMANCE_SEED=${seed} replays this run`,
  );
}

function guardsOf(service: string, method: string, operationId: string): GuardedAction[] {
  const guards: GuardedAction[] = service === 'petstore' ? ['petstore'] : [];
  if (method !== 'get' && operationId !== 'createToken') guards.push('write');
  return guards;
}

const plannedRequests = (runs: number | Record<string, number>) =>
  typeof runs === 'number' ? runs : Object.values(runs).reduce((sum, n) => sum + n, 0);

area('generated', () => {
  const declared: { declare: () => void; requests: number }[] = [];
  for (const op of ops) {
    const route = `${op.method.toUpperCase()} ${op.path}`;
    const guarded = guardsOf(op.service, op.method, op.operationId);
    const kinds = [
      {
        kind: 'valid' as const,
        id: `GNR-VALID-${op.operationId}`,
        title: `${route}: schema-valid requests are answered as the spec allows, never 5xx`,
        rules: ['GNR-01', 'GNR-02', ...(op.operationId === 'createPets' ? ['GNR-04'] : [])],
        runs: plan.valid[op.operationId] ?? 0,
      },
      {
        kind: 'invalid' as const,
        id: `GNR-INVALID-${op.operationId}`,
        title: `${route}: requests that break a constraint the spec shows are refused with a 4xx; none is answered 5xx`,
        // An edge a create accepts reads back equal (a non-ASCII name).
        rules: ['GNR-01', 'GNR-03', ...(op.operationId === 'createPets' ? ['GNR-04'] : [])],
        runs: plan.invalid[op.operationId] ?? {},
      },
    ];
    for (const k of kinds) {
      if (k.kind === 'invalid' && mutationsOf(requestSchemas(op.operationId)).length === 0) continue;
      const declare = () =>
        check(
          { id: k.id, title: k.title, rules: k.rules, guarded, generation: { seed, budget } },
          async (t) => {
            if (budget === 0) t.skip('CONFORMANCE_GENERATED=0 switches generated requests off');
            const planned = typeof k.runs === 'number' ? k.runs : Object.keys(k.runs).length;
            if (planned === 0) t.skip(`the budget of ${budget} requests leaves none for ${route}`);
            const run = await runGenerated({
              kind: k.kind,
              operationId: op.operationId,
              config: t.config,
              seed,
              runs: k.runs,
            });
            t.attach(run.exchanges);
            if (run.failure) {
              t.fail(run.failure.message, {
                ...(run.failure.exchange ? { exchange: run.failure.exchange } : {}),
                replay: replayCommand(loaded.settings, run.failure.rule),
              });
            }
            if (run.unavailable) t.skip(run.unavailable);
            if (run.passed === 0) {
              const why = [...new Set(run.inconclusive)].join('; ');
              t.skip(`inconclusive: none of ${run.requests} requests could be judged (${why})`);
            }
          },
        );
      declared.push({ declare, requests: plannedRequests(k.runs) });
    }
  }
  // The checks run a few at a time in declaration order: the longest first, so that none of them
  // starts last and keeps the run waiting (with a slow target, createPets' 28 breaks take longest).
  for (const d of [...declared].sort((a, b) => b.requests - a.requests)) d.declare();
  // The target still alive after an odd request (src/checks/alive.ts).
  aliveChecks();
});
