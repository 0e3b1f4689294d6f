// The run's exchanges as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the archive
// browsers and proxies open: `--har FILE`, and reports/run.har by default in CI. Made from the
// results as written (every secret already a REDACTED mark) and filtered once more; each entry is
// tagged with the check that sent it and its rules in HAR's custom fields (`_`-prefixed), so a
// reviewer can find the exchanges of a failed rule. An exchange several checks share is one entry.
import type { RecordedExchange } from '../client/index.ts';
import type { CheckResult, ConformanceResults } from './types.ts';

interface HarPair {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The check that sent it (the first, when several checks share the exchange). */
  _check: string;
  /** The rules of the checks that judged it (its own and _alsoChecks'). */
  _rules: string[];
  _level: string;
  /** The check's verdict: passed, failed, skipped. */
  _status: string;
  /** The other checks that judged the same exchange (shared work, the invariants). */
  _alsoChecks?: string[];
  /** The failed checks whose failure was about this exchange. */
  _failedChecks?: string[];
  /** No answer: the transport's error (a timeout, a refused connection). */
  _error?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    entries: HarEntry[];
  };
}

const pairs = (h: Record<string, string> | undefined): HarPair[] =>
  Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

function queryOf(url: string): HarPair[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const typeOf = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {}).find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';

/** The answer's body as HAR holds it. */
function answerOf(x: RecordedExchange): Pick<HarEntry['response'], 'content' | 'bodySize'> {
  return {
    content: {
      size: x.responseBody === undefined ? 0 : Buffer.byteLength(x.responseBody),
      mimeType: typeOf(x.responseHeaders),
      ...(x.responseBody === undefined ? {} : { text: x.responseBody }),
    },
    bodySize: x.responseBody === undefined ? -1 : Buffer.byteLength(x.responseBody),
  };
}

function entryOf(x: RecordedExchange, c: CheckResult, failing: boolean): HarEntry {
  const body = x.requestBody;
  return {
    startedDateTime: x.startedAt,
    time: Math.max(0, x.durationMs),
    request: {
      method: x.method,
      url: x.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.requestHeaders),
      queryString: queryOf(x.url),
      ...(body === undefined ? {} : { postData: { mimeType: typeOf(x.requestHeaders), text: body } }),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    },
    response: {
      // HAR's convention for no answer: status 0.
      status: x.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.responseHeaders),
      ...answerOf(x),
      redirectURL: '',
      headersSize: -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.max(0, x.durationMs), receive: 0 },
    _check: c.id,
    _rules: [...c.rules],
    _level: c.level,
    _status: c.status,
    ...(failing ? { _failedChecks: [c.id] } : {}),
    ...(x.error === undefined ? {} : { _error: x.error }),
  };
}

const keyOf = (x: RecordedExchange) => `${x.method} ${x.url} ${x.startedAt} ${x.status ?? x.error ?? ''}`;

/** The HAR of a run's results (already redacted): one entry per exchange, in the order sent. */
export function renderHar(results: ConformanceResults, redact: <T>(value: T) => T): Har {
  const byKey = new Map<string, HarEntry>();
  for (const c of results.checks) {
    c.exchanges.forEach((x, i) => {
      const failing = c.status === 'failed' && c.failedExchange === i;
      const seen = byKey.get(keyOf(x));
      if (!seen) {
        byKey.set(keyOf(x), entryOf(x, c, failing));
        return;
      }
      if (seen._check !== c.id && !seen._alsoChecks?.includes(c.id))
        seen._alsoChecks = [...(seen._alsoChecks ?? []), c.id];
      seen._rules = [...new Set([...seen._rules, ...c.rules])];
      if (failing) seen._failedChecks = [...(seen._failedChecks ?? []), c.id];
      // A passing check keeps less of an answer than a failed one (write-reports.ts): the most kept.
      if ((x.responseBody?.length ?? 0) > (seen.response.content.text?.length ?? 0))
        Object.assign(seen.response, answerOf(x));
    });
  }
  const entries = [...byKey.values()].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return redact({
    log: {
      version: '1.2',
      creator: { name: results.tool.name, version: results.tool.version },
      comment: `conformance run of ${results.target.name} (${results.target.apiBaseUrl}), started ${results.startedAt}, exit code ${results.exitCode}; secrets are written [REDACTED]`,
      entries,
    },
  });
}

/** Where the HAR goes: the --har file, else reports/run.har in CI (CI is set), else nowhere. */
export function harPathOf(
  given: string | undefined,
  reportsFolder: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (given) return given;
  const ci = env.CI?.trim().toLowerCase();
  return ci && ci !== '0' && ci !== 'false' ? `${reportsFolder}/run.har` : undefined;
}
