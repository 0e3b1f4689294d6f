// One generated check: learn what the generators need from the target, run the properties the
// budget gives the operation (valid requests, or each single-constraint break), and say what
// happened: the shrunk failure with its exchange (the reports render its curl line from it), or how
// many requests passed and why any proved nothing.
import { mapConcurrent } from '../checks/concurrency.ts';
import { jsonBytesProblem, jsonKeysProblem } from '../checks/json-bytes.ts';
import { customersBearer } from '../checks/route-schemes.ts';
import {
  type ApiClient,
  buildOutgoing,
  createApiClient,
  createRecorder,
  namedSecrets,
  type RecordedExchange,
  withVariables,
} from '../client/index.ts';
import { secretValues, type TargetConfig } from '../config/index.ts';
import { freshIds } from './fresh-ids.ts';
import { mutationsOf } from './mutations.ts';
import { probeOf, type SentRequest } from './probe.ts';
import { runProperty } from './property.ts';
import { describeRequest } from './request.ts';
import { type Facts, factsNeeded, type OperationPlan, planOf } from './semantics.ts';
import { SHRINK_REQUESTS, subSeed } from './settings.ts';
import type { GeneratedRule } from './verdict.ts';

export interface GeneratedRun {
  /** Requests sent (facts, probes, read-backs, shrinking). */
  requests: number;
  passed: number;
  inconclusive: string[];
  failure?: {
    rule: GeneratedRule;
    message: string;
    /** The failing (shrunk) request's exchange, one of `exchanges`: its curl line reproduces it. */
    exchange?: RecordedExchange;
  };
  /** Why nothing could be judged (the check is then skipped, never passed). */
  unavailable?: string;
  exchanges: RecordedExchange[];
}

const SAMPLE = 6;
// Properties of one operation sent side by side: a run is round trips deep, not their sum, while a
// target's limiter sees a few requests at a time per check, not a burst.
const PROPERTIES_AT_ONCE = 4;

async function learnFacts(
  client: ApiClient,
  config: TargetConfig,
  operationId: string,
): Promise<Facts | string> {
  const facts: Facts = {
    credentials: { clientId: config.credentials.clientId, clientSecret: config.credentials.clientSecret },
  };
  for (const need of factsNeeded(operationId)) {
    if (need === 'totalPages') {
      const res = await client.request({
        service: 'main',
        method: 'GET',
        path: 'v1/customers',
        auth: 'apiKey',
      });
      const total = (res.body as { pagination?: { total_pages?: unknown } } | undefined)?.pagination
        ?.total_pages;
      if (res.status !== 200 || typeof total !== 'number') {
        return `total_pages could not be learned (GET /v1/customers answered ${res.status})`;
      }
      facts.totalPages = total;
      // A bearer token the route refuses properly is its choice: generated requests use the API key.
      const bearer = await customersBearer(client, config);
      if (!bearer.taken) facts.schemes = ['apiKey'];
    } else {
      const res = await client.request({
        service: 'petstore',
        method: 'GET',
        path: 'pets',
        query: { limit: 20 },
        auth: 'none',
      });
      if (res.status !== 200 || !Array.isArray(res.body)) {
        return `no pets could be listed (GET /pets?limit=20 answered ${res.status})`;
      }
      facts.pets = res.body as Record<string, unknown>[];
    }
  }
  return facts;
}

// An operation's facts, learned once per target (its config): its valid and its invalid check need the
// same ones, and asking them twice proved nothing the first answers did not. Both checks carry the
// exchanges as evidence.
const learned = new WeakMap<
  TargetConfig,
  Map<string, Promise<{ facts: Facts | string; exchanges: RecordedExchange[] }>>
>();
function factsOf(
  config: TargetConfig,
  operationId: string,
  side: { client: ApiClient; recorder: { exchanges(): RecordedExchange[] } },
): Promise<{ facts: Facts | string; exchanges: RecordedExchange[] }> {
  let byOperation = learned.get(config);
  if (!byOperation) {
    byOperation = new Map();
    learned.set(config, byOperation);
  }
  let pending = byOperation.get(operationId);
  if (!pending) {
    pending = learnFacts(side.client, config, operationId).then((facts) => ({
      facts,
      exchanges: side.recorder.exchanges(),
    }));
    byOperation.set(operationId, pending);
  }
  return pending;
}

const tokens = new WeakMap<TargetConfig, Promise<{ token?: string; exchanges: RecordedExchange[] }>>();
function tokenOf(
  config: TargetConfig,
  side: { client: ApiClient; recorder: { exchanges(): RecordedExchange[] } },
): Promise<{ token?: string; exchanges: RecordedExchange[] }> {
  let pending = tokens.get(config);
  if (!pending) {
    pending = side.client.tokens.getToken().then(
      (token) => ({ token, exchanges: side.recorder.exchanges() }),
      () => ({ exchanges: side.recorder.exchanges() }),
    );
    tokens.set(config, pending);
  }
  return pending;
}

function failureMessage(
  plan: OperationPlan,
  config: TargetConfig,
  what: string,
  failure: NonNullable<Awaited<ReturnType<typeof runProperty<unknown, SentRequest>>>['failure']>,
): string {
  const request = withVariables(describeRequest(plan.op, failure.request.generated), namedSecrets(config));
  const shrunk = failure.shrinks
    ? `, shrunk in ${failure.shrinks} step${failure.shrinks > 1 ? 's' : ''}`
    : '';
  // The command that sends it again comes from its recorded exchange, and the run's replay line
  // from the suite: both on lines of their own in every report, never cut with this one.
  return `${what} ${request} ${failure.verdict.message} (${failure.verdict.rule}${shrunk})`;
}

/**
 * The exchange of the request a verdict judged: the last one sent with its method to its path (a
 * token request, a renewal or a read-back may come before or after it in the probe's exchanges).
 */
export function judgedExchange(
  exchanges: readonly RecordedExchange[],
  method: string,
  path: string,
): RecordedExchange | undefined {
  const pathOf = (url: string) => {
    try {
      return new URL(url).pathname;
    } catch {
      return url;
    }
  };
  return exchanges.findLast((x) => x.method === method && pathOf(x.url) === path);
}

export async function runGenerated(options: {
  kind: 'valid' | 'invalid';
  operationId: string;
  config: TargetConfig;
  seed: number;
  /** Runs of the valid property, or runs per mutation id. */
  runs: number | Record<string, number>;
}): Promise<GeneratedRun> {
  const { config, seed, operationId } = options;
  // One recorder and client for the facts, and one per property: properties run side by side, so
  // each keeps its own exchanges (the failing request's evidence) and its own fresh-id stream.
  const newClient = () => {
    const recorder = createRecorder(secretValues(config));
    return { recorder, client: createApiClient(config, { recorder }) };
  };
  const run: GeneratedRun = { requests: 0, passed: 0, inconclusive: [], exchanges: [] };
  const { facts, exchanges: factExchanges } = await factsOf(config, operationId, newClient());
  if (typeof facts === 'string') {
    run.unavailable = facts;
    run.exchanges = factExchanges;
    run.requests = run.exchanges.length;
    return run;
  }
  const plan = planOf(operationId, facts);
  const properties: {
    name: string;
    runs: number;
    mode: Parameters<typeof probeOf>[3];
    arbitrary: typeof plan.base;
  }[] =
    options.kind === 'valid'
      ? // The valid runs split into a few properties of their own seeds, so that they too go side
        // by side: one property's runs follow one another, and a slow target makes that the run's
        // longest path.
        shares(options.runs as number, PROPERTIES_AT_ONCE).map((runs, i) => ({
          name: i === 0 ? 'valid' : `valid ${i + 1}`,
          runs,
          mode: { kind: 'valid' } as const,
          arbitrary: plan.valid,
        }))
      : mutationsOf(plan.schemas)
          .filter((m) => typeof options.runs === 'object' && (options.runs[m.id] ?? 0) > 0)
          .map((mutation) => ({
            name: mutation.id,
            runs: (options.runs as Record<string, number>)[mutation.id] ?? 0,
            mode: { kind: 'invalid', mutation, expectation: plan.expectationOf(mutation) } as const,
            arbitrary: plan.base,
          }));
  // One token for the generated checks' properties (per target): each property fetched its own
  // before, the same question answered the same, proving nothing new. A property whose session
  // expires renews its own; where the token cannot be had, each property asks as before (and meets
  // the failure itself).
  const bearer =
    plan.op.security.includes('bearer') && (facts.schemes ?? plan.op.security).includes('bearer');
  const { token, exchanges: tokenExchanges } = bearer
    ? await tokenOf(config, newClient())
    : { token: undefined, exchanges: [] };
  const outcomes = await mapConcurrent(properties, PROPERTIES_AT_ONCE, async (property) => {
    const { recorder, client } = newClient();
    if (token !== undefined) client.tokens.useToken(token);
    const nextId = freshIds(subSeed(seed, `${operationId} ids ${property.name}`));
    const probe = probeOf(plan, client, nextId, property.mode);
    const recorded: typeof probe = async (value) => {
      const before = recorder.exchanges().length;
      const result = await probe(value);
      result.request.exchanges = recorder.exchanges().slice(before);
      return result;
    };
    const outcome = await runProperty(property.arbitrary, recorded, {
      seed: subSeed(seed, `${operationId} ${property.name}`),
      numRuns: property.runs,
      shrinkRequests: SHRINK_REQUESTS,
    });
    return { property, outcome, exchanges: recorder.exchanges() };
  });
  const all = [...factExchanges, ...tokenExchanges, ...outcomes.flatMap((o) => o.exchanges)];
  run.requests = all.length;
  // The evidence: the first exchanges (facts and the first probes), and the shrunk failure last.
  let failing: RecordedExchange[] = [];
  for (const { property, outcome } of outcomes) {
    run.passed += outcome.passed;
    run.inconclusive.push(...outcome.inconclusive);
    // The first failing property in the documents' order is the one reported, as when they ran
    // one after the other: the same seed gives the same report however the requests interleave.
    if (outcome.failure && !run.failure) {
      const what =
        property.mode.kind === 'invalid' ? `${property.mode.mutation.description}:` : 'valid request:';
      failing = outcome.failure.request.exchanges ?? [];
      const sent = outcome.failure.request.api;
      const exchange = judgedExchange(failing, sent.method, judgedPath(config, sent));
      run.failure = {
        rule: outcome.failure.verdict.rule,
        message: failureMessage(plan, config, what, outcome.failure),
        ...(exchange ? { exchange } : {}),
      };
    }
  }
  // Beside them, the first answers whose body is declared JSON and is not a JSON text as sent: the
  // run's invariants (INV-JSON-BYTES, INV-JSON-KEYS) judge attached exchanges only.
  const notJsonText = all.filter((e) => jsonBytesProblem(e) || jsonKeysProblem(e)).slice(0, SAMPLE);
  run.exchanges = [...new Set([...all.slice(0, SAMPLE), ...failing, ...notJsonText])];
  return run;
}

/** The path the request was sent to (as the one builder makes its URL). */
function judgedPath(config: TargetConfig, api: Parameters<typeof buildOutgoing>[0]): string {
  return buildOutgoing(api, config).url.pathname;
}

/** `total` split into at most `parts` near-equal shares, none of them empty. */
export function shares(total: number, parts: number): number[] {
  const count = Math.max(0, Math.min(parts, total));
  return Array.from({ length: count }, (_, i) => Math.floor(total / count) + (i < total % count ? 1 : 0));
}
