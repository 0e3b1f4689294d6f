// One GET of the target's base address before k6 starts: an unreachable target is one line and
// exit 2, not a k6 run of failed requests. Any HTTP answer (even 404) means it is reachable.
// undici's request, not fetch: fetch refuses ports the browser blocks, which k6 would still use.
import { request } from 'undici';

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host not found (DNS, temporary)',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_ABORTED: 'no answer in time',
};

function cause(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'no answer in time';
  }
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return CAUSES[code] ?? code;
    current = (current as { cause?: unknown }).cause;
  }
  if (/certificate|tls|ssl/i.test(String((error as { cause?: unknown })?.cause ?? error)))
    return 'TLS failed';
  return (error as Error)?.message?.split('\n')[0] ?? String(error);
}

/** undefined when the address answers; otherwise why not, in one line. */
export async function unreachableReason(url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const res = await request(url, {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    res.body.resume();
    return undefined;
  } catch (error) {
    return `cannot reach ${url}: ${cause(error)}`;
  }
}
