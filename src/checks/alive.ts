// The target is still alive after an odd request. GNR-01: "No request is answered with a 5xx,
// valid or not": a server that crashes or hangs on a request answers nothing at all, which is
// worse. Each check sends one odd request (a garbled request line, a 20 KB header, the pet list's
// own x-next link followed once), then one plain request that must still be answered. The odd
// answer itself is not judged (any status, or a closed connection, is the server's choice for a
// request that is not HTTP); only the plain request after it is. A refused connection or a
// timeout there, after the run's answered history, is the server's failure, not the network's.
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { type RecordedExchange, TransportError } from '../client/index.ts';
import { type CheckContext, check } from './define.ts';

/** How long an odd request is given to be answered or closed: its answer is not judged. */
const ODD_WAIT_MS = 3000;

/** Sends raw bytes to the main service's origin; resolves with what came back (maybe nothing). */
function sendRaw(base: string, bytes: string): Promise<{ answer: string; error?: string }> {
  const url = new URL(base);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = Buffer.concat(chunks).toString('latin1');
      resolve(error === undefined ? { answer } : { answer, error });
    };
    const socket = secure
      ? tlsConnect({ host: url.hostname, port, servername: url.hostname }, () => socket.write(bytes))
      : tcpConnect({ host: url.hostname, port }, () => socket.write(bytes));
    const timer = setTimeout(() => finish('no answer yet'), ODD_WAIT_MS);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (e) => finish(e.message));
  });
}

/** The odd request as evidence, with a command that sends the same bytes. */
function rawExchange(
  base: string,
  bytes: string,
  got: { answer: string; error?: string },
  startedAt: number,
) {
  const url = new URL(base);
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(got.answer);
  const exchange: RecordedExchange = {
    method: 'RAW',
    url: `${url.origin}/`,
    requestHeaders: {},
    requestBody: bytes.length > 200 ? `${bytes.slice(0, 200)}... (${bytes.length} bytes in all)` : bytes,
    startedAt: new Date(startedAt).toISOString(),
    durationMs: Date.now() - startedAt,
  };
  if (statusLine) exchange.status = Number(statusLine[1]);
  if (got.answer) exchange.responseBody = got.answer.slice(0, 2000);
  if (got.error !== undefined) exchange.error = got.error;
  return exchange;
}

/** The plain request after the odd one: answered, whatever its status, or the check fails. */
async function stillAnswers(t: CheckContext, after: string, replay?: string): Promise<void> {
  try {
    await t.client.request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'none' });
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    t.fail(
      `after ${after}, a plain GET /v1/customers was not answered (${error.kind}: ${error.message}): the server crashed or hangs`,
      // Only a command that runs nothing but curl is printed: raw bytes have none (results.json has the exchange).
      replay ? { replay } : {},
    );
  }
}

/** The checks, declared inside the generated area (suites/generated.test.ts): GNR-01 is its rule. */
export function aliveChecks(): void {
  const oddLines: { id: string; title: string; bytes: (host: string) => string }[] = [
    {
      id: 'GNR-ALIVE-GARBLED-LINE',
      title: 'a garbled request line leaves the server answering',
      bytes: () => 'GARBLED \u0001\u0002 NOT-HTTP\r\n\r\n',
    },
    {
      id: 'GNR-ALIVE-BIG-HEADER',
      title: 'a 20 KB request header leaves the server answering',
      bytes: (host) =>
        `GET / HTTP/1.1\r\nhost: ${host}\r\nx-conformance-padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    },
  ];
  for (const odd of oddLines) {
    check({ id: odd.id, title: odd.title, rules: ['GNR-01'], timeoutMs: 60_000 }, async (t) => {
      const base = t.config.apiBaseUrl;
      const url = new URL(base);
      const bytes = odd.bytes(url.host);
      const started = Date.now();
      const got = await sendRaw(base, bytes);
      t.attach([rawExchange(base, bytes, got, started)]);
      await stillAnswers(t, odd.title.split(' leaves')[0] ?? odd.id);
    });
  }

  check(
    {
      id: 'GNR-ALIVE-NEXT-LINK',
      title:
        'the x-next link of GET /pets?limit=3, followed once, is answered and leaves the server answering',
      rules: ['GNR-01'],
      guarded: ['petstore'],
      timeoutMs: 90_000,
    },
    async (t) => {
      const first = await t.client.request({
        service: 'petstore',
        method: 'GET',
        path: 'pets',
        query: { limit: 3 },
        auth: 'none',
      });
      const link = first.headers['x-next'] ?? '';
      if (first.status !== 200 || !link) {
        t.skip(`inconclusive: GET /pets?limit=3 answered ${first.status} without an x-next link to follow`);
      }
      // Never followed outside the configured pet base: a link elsewhere is not ours to send to.
      const base = new URL(t.config.petstoreBaseUrl.replace(/\/?$/, '/'));
      const next = URL.canParse(link, base.href) ? new URL(link, base) : undefined;
      if (!next) return t.skip(`inconclusive: x-next ${JSON.stringify(link)} is not a URL`);
      if (next.origin !== base.origin || !next.pathname.startsWith(base.pathname)) {
        t.skip(`inconclusive: x-next ${JSON.stringify(link)} leaves the configured pet base, not followed`);
      }
      const query: Record<string, string> = {};
      for (const [k, v] of next.searchParams) query[k] = v;
      const replay = `curl -si '${next.href}'; curl -si '${t.config.apiBaseUrl.replace(/\/?$/, '/')}v1/customers'`;
      try {
        await t.client.request({
          service: 'petstore',
          method: 'GET',
          path: next.pathname.slice(base.pathname.length),
          query,
          auth: 'none',
        });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        t.fail(
          `the x-next link ${next.pathname}${next.search} was not answered (${error.kind}): the server hangs`,
          {
            replay,
          },
        );
      }
      await stillAnswers(t, 'following x-next', replay);
    },
  );
}
