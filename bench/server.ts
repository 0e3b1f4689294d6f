// npm run bench:server [-- --duration 10 --connections 50 --memory --workers 0 --scenario mix]
// Throughput and latency of the embedded reference server (started in process, rate limiter off)
// under autocannon, per scenario: customers page 2 with the API key, the pet list, and a mix of
// routes with both credentials. Prints requests/s, latency p50/p99 and every answer that is not
// 2xx or 429; exits 1 when there was any such answer or any connection error (a crash shows here).
// --memory prints RSS and heap before and after (after a GC when node runs with --expose-gc).
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type RunningReferenceServer, startReferenceServer } from '../src/reference/index.ts';

interface Scenario {
  name: string;
  requests: autocannon.Request[];
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  unexpected: Record<string, number>; // status -> count, every status but 2xx and 429
  errors: number; // autocannon counts timeouts among errors
  timeouts: number;
}

function options(): {
  duration: number;
  connections: number;
  memory: boolean;
  workers: number;
  only: string | undefined;
} {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      workers: { type: 'string', default: '0' },
      scenario: { type: 'string' },
      memory: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, raw: string, min: number) => {
    const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min)
      throw new Error(`--${name} must be an integer of at least ${min}`);
    return n;
  };
  return {
    duration: int('duration', values.duration, 1),
    connections: int('connections', values.connections, 1),
    workers: int('workers', values.workers, 0),
    memory: values.memory,
    only: values.scenario,
  };
}

async function accessToken(server: RunningReferenceServer): Promise<string> {
  const c = server.credentials;
  const res = await fetch(`${server.apiBaseUrl}v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: c.clientId, client_secret: c.clientSecret }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`the token route answered ${res.status} without a token`);
  return body.access_token;
}

function scenarios(server: RunningReferenceServer, token: string): Scenario[] {
  const c = server.credentials;
  const key = { 'x-api-key-id': c.apiKeyId, 'x-api-key-secret': c.apiKeySecret };
  const bearer = { authorization: `Bearer ${token}` };
  const customers = { method: 'GET' as const, path: '/api/v1/customers?page=2', headers: key };
  const pets = { method: 'GET' as const, path: '/petstore/v1/pets' };
  return [
    { name: 'GET /api/v1/customers?page=2 (API key)', requests: [customers] },
    { name: 'GET /petstore/v1/pets (100 pets)', requests: [pets] },
    {
      name: 'mix: customers (key), user/me + feature-flags (bearer), pets list, pet by id',
      requests: [
        customers,
        { method: 'GET', path: '/api/v1/user/me', headers: bearer },
        { method: 'GET', path: '/api/v1/feature-flags', headers: bearer },
        pets,
        { method: 'GET', path: '/petstore/v1/pets/7' },
      ],
    },
  ];
}

async function run(
  server: RunningReferenceServer,
  scenario: Scenario,
  o: ReturnType<typeof options>,
): Promise<Figures> {
  const result = await autocannon({
    url: new URL(server.apiBaseUrl).origin,
    connections: o.connections,
    duration: o.duration,
    requests: scenario.requests,
    ...(o.workers > 0 ? { workers: o.workers } : {}),
  });
  const unexpected: Record<string, number> = {};
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
    const n = Number(status);
    if ((n < 200 || n > 299) && n !== 429) unexpected[status] = stat.count ?? 0;
  }
  return {
    name: scenario.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// The process also holds autocannon (its workers too, with --workers): the change between before
// and after is what matters, and it is printed.
function memory(label: string): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const m = process.memoryUsage();
  console.log(`  memory ${label}: rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)}${gc ? ' (after GC)' : ''}`);
  return m;
}

function print(f: Figures): void {
  const unexpected = Object.entries(f.unexpected);
  console.log(`\n${f.name}`);
  console.log(
    `  ${Math.round(f.requestsPerSecond).toLocaleString('en')} req/s (${f.total.toLocaleString('en')} requests), ` +
      `latency p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms`,
  );
  console.log(
    `  answers other than 2xx/429: ${unexpected.length ? unexpected.map(([s, n]) => `${n} x ${s}`).join(', ') : 'none'}; ` +
      `connection errors ${f.errors} (of which timeouts ${f.timeouts})`,
  );
}

async function main(): Promise<void> {
  const o = options();
  // The limiter is off: the figures are the server's work, not its refusals.
  const server = await startReferenceServer({ rateLimit: null });
  console.log(
    `reference server benchmark: Node ${process.version}, ${o.connections} connections, ${o.duration} s per scenario` +
      `${o.workers ? `, ${o.workers} autocannon workers` : ' (autocannon in the same process)'}`,
  );
  let bad = 0;
  try {
    const token = await accessToken(server);
    // One request per route first, so the seeded data is built before memory is first read.
    const origin = new URL(server.apiBaseUrl).origin;
    for (const r of scenarios(server, token).flatMap((sc) => sc.requests)) {
      await (
        await fetch(`${origin}${r.path}`, { headers: (r.headers ?? {}) as Record<string, string> })
      ).arrayBuffer();
    }
    const before = o.memory ? memory('before') : undefined;
    for (const scenario of scenarios(server, token).filter((sc) => !o.only || sc.name.includes(o.only))) {
      const figures = await run(server, scenario, o);
      print(figures);
      bad += Object.values(figures.unexpected).reduce((a, b) => a + b, 0) + figures.errors; // errors include timeouts
    }
    if (before) {
      console.log('');
      const after = memory('after ');
      console.log(
        `  rss change ${mb(after.rss - before.rss)}, heap used change ${mb(after.heapUsed - before.heapUsed)}`,
      );
      if (!(globalThis as { gc?: unknown }).gc) {
        console.log('  (for figures after a GC: node --expose-gc --import tsx bench/server.ts --memory)');
      }
    }
  } finally {
    await server.close();
  }
  if (bad > 0) {
    console.log(`\nFAILED: ${bad} answers other than 2xx/429, errors or timeouts`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(`bench:server: ${(error as Error).message.split('\n')[0]}`);
  process.exit(2);
});
