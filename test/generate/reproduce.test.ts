// Exact evidence for a generated failure: the failing (shrunk) request's exchange is named, and the
// command printed for it, run in a shell with the variables exported, makes the reference server
// receive that request again, byte for byte (method, URL, headers, content type, body).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { curlOf, curlVariables, type RecordedExchange } from '../../src/client/index.ts';
import { loadSettings, resolveTarget } from '../../src/config/index.ts';
import { mutationsOf } from '../../src/generate/mutations.ts';
import { replayCommand } from '../../src/generate/replay.ts';
import { runGenerated } from '../../src/generate/run.ts';
import { requestSchemas } from '../../src/generate/schema.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { renderConsoleTable } from '../../src/report/console-table.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderSummary } from '../../src/report/summary-md.ts';
import type { CheckResult } from '../../src/report/types.ts';
import { fixtureResults } from '../report/fixture.ts';
import { type ProxiedRequest, startForwardingProxy } from '../support/forwarding-proxy.ts';

/** A loopback proxy in front of the reference server that keeps every request as it arrived. */
async function recordingProxy(upstream: URL) {
  const seen: ProxiedRequest[] = [];
  const proxy = await startForwardingProxy(upstream.href, { onRequest: (request) => seen.push(request) });
  return { origin: proxy.origin, seen, close: proxy.close };
}

/** What the server received, without what only the sending program decides. */
function received(s: ProxiedRequest) {
  const { host: _h, connection: _c, ...headers } = s.headers;
  return { method: s.method, url: s.url, headers, body: s.body };
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function failingRun(fault: string, operationId: string, kind: 'valid' | 'invalid') {
  const server: RunningReferenceServer = await startReferenceServer({ faults: [fault] });
  closers.push(() => server.close());
  const proxy = await recordingProxy(new URL(server.apiBaseUrl));
  closers.push(proxy.close);
  const loaded = loadSettings({ CONFORMANCE_TARGET: 'local' }, { envFile: false });
  if (!loaded.ok) throw new Error('local settings');
  const config = resolveTarget(loaded.settings, {
    ...server,
    apiBaseUrl: `${proxy.origin}/api/`,
    petstoreBaseUrl: `${proxy.origin}/petstore/v1`,
  });
  const runs =
    kind === 'valid'
      ? 20
      : Object.fromEntries(mutationsOf(requestSchemas(operationId)).map((m) => [m.id, 2]));
  const run = await runGenerated({ kind, operationId, config, seed: 7, runs });
  return { run, proxy, config };
}

describe('a generated failure reproduces exactly', () => {
  it.each([
    // A secret inside a JSON body: the issue's `[REDACTED]"$CLIENT_SECRET"` case.
    ['token-wrong-type-accepted', 'createToken', 'invalid'],
    ['pets-limit-not-a-number-accepted', 'listPets', 'invalid'],
    ['pet-tag-refused', 'createPets', 'valid'],
  ] as const)(
    '%s: the printed command sends the failing %s request again',
    async (fault, operationId, kind) => {
      const { run, proxy, config } = await failingRun(fault, operationId, kind);
      const exchange = run.failure?.exchange as RecordedExchange;
      expect(exchange, 'the failing exchange is named').toBeDefined();
      expect(run.exchanges).toContain(exchange);
      // What the server received for the failing exchange (properties run side by side, so it is
      // found by its method, URL and body rather than by its place).
      const values: Record<string, string> = {
        CLIENT_SECRET: config.credentials.clientSecret,
        API_KEY_SECRET: config.credentials.apiKeySecret,
      };
      const sent = sentOf(exchange, values);
      const original = proxy.seen.find(
        (s) => s.method === sent.method && `${proxy.origin}${s.url}` === sent.url && s.body === sent.body,
      );
      expect(original, 'the failing request reached the server').toBeDefined();
      const command = curlOf(exchange);
      expect(command).not.toContain(config.credentials.clientSecret);
      const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
      for (const name of curlVariables(exchange)) {
        expect(Object.keys(values), "variables of the table's secret rows").toContain(name);
        env[name] = values[name] as string;
      }
      const before = proxy.seen.length;
      await promisify(execFile)('sh', ['-c', `${command} -s -o /dev/null`], { env });
      expect(proxy.seen.length).toBe(before + 1);
      expect(received(proxy.seen.at(-1) as ProxiedRequest)).toEqual(received(original as ProxiedRequest));
    },
  );

  it('the console block names the failing exchange, gives the command and the whole replay line', async () => {
    const { run } = await failingRun('token-wrong-type-accepted', 'createToken', 'invalid');
    const exchange = run.failure?.exchange as RecordedExchange;
    const replay = replayCommand({ seed: 7, budget: 300 }, run.failure?.rule ?? '');
    const check: CheckResult = {
      id: 'GNR-INVALID-createToken',
      title: 'POST /v1/auth/token: requests that break one constraint are refused with a 4xx, never 5xx',
      area: 'generated',
      rules: ['GNR-01', 'GNR-03'],
      level: 'MUST',
      status: 'failed',
      reason: `${run.failure?.message ?? ''} ${'x'.repeat(300)}`,
      failedExchange: run.exchanges.indexOf(exchange),
      replay,
      durationMs: 1,
      exchanges: run.exchanges,
    };
    const results = fixtureResults({
      checks: [check],
      coverage: new Map(check.rules.map((r) => [r, [check.id]])),
      areas: ['generated'],
    });
    const text = renderConsoleTable(results, ['reports/summary.md']);
    expect(text).not.toContain('is not known');
    expect(text).toMatch(/exchange #\d+ of \d+ failed: POST .*\/v1\/auth\/token -> HTTP 200/);
    expect(text).toContain(`  reproduce with: ${curlOf(exchange)}\n`);
    expect(text).toContain(`\n  replay with: ${replay}\n`);
    // The same replay line, whole and on its own line, in summary.md and index.html.
    expect(renderSummary(results)).toContain(`\n      ${replay}\n`);
    expect(renderHtml(results)).toContain(`<pre class="reproduce replay">${replay}</pre>`);
    const block = text.split('\n').filter((l) => /GNR-INVALID|exchange #|reproduce with|replay with/.test(l));
    process.stdout.write(`${block.join('\n')}\n`);
  });
});

/** The request as recorded: the replay's parts with each variable's value put back. */
function sentOf(exchange: RecordedExchange, values: Record<string, string>) {
  const join = (parts: readonly (string | { variable: string })[] = []) =>
    parts.map((p) => (typeof p === 'string' ? p : (values[p.variable] ?? `$${p.variable}`))).join('');
  return { method: exchange.method, url: join(exchange.replay?.url), body: join(exchange.replay?.body) };
}
