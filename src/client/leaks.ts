// What an answer must never carry, judged on the exchange as received (before the recorder's
// redaction hides it): a configured secret, named by its variable, or an access token the request
// did not ask for. The verdicts travel with the recorded exchange (`leaked`); the reporter's
// invariant pass (src/checks/invariants.ts) reports them under SEC-01.
import { secretForms } from '../../common/secret-filter.ts';
import { type NamedSecret, UNNAMED_SECRET } from './replay.ts';
import type { RecordedExchange } from './types.ts';

/** Fields that hold a token wherever they stand in an answer. */
const TOKEN_FIELDS = /"(access_token|refresh_token|id_token)"\s*:\s*"[^"]/;

/** POST .../v1/auth/token: the one request that asks for a token. */
export function asksForToken(method: string, url: string): boolean {
  try {
    return method === 'POST' && /\/v1\/auth\/token\/?$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * The names of what the answer carries and must not: configured secrets by variable name,
 * "an access token the run obtained" and "a token field (name)" outside a token answer.
 */
export function leaksOf(
  e: Pick<RecordedExchange, 'method' | 'url' | 'responseHeaders' | 'responseBody'>,
  secrets: readonly NamedSecret[],
  tokens: ReadonlySet<string>,
): string[] {
  if (e.responseBody === undefined && e.responseHeaders === undefined) return [];
  const answer = `${Object.values(e.responseHeaders ?? {}).join('\n')}\n${e.responseBody ?? ''}`;
  const carries = (value: string) => secretForms(value).some((form) => answer.includes(form));
  // A secret given to the recorder unnamed is still a configured one.
  const found = secrets
    .filter((s) => carries(s.value))
    .map((s) => (s.variable === UNNAMED_SECRET ? 'a configured secret' : s.variable));
  if (!asksForToken(e.method, e.url)) {
    if ([...tokens].some(carries)) found.push('an access token the run obtained');
    // Every name ends in _token": the pattern only where one could match (it runs on every answer).
    const body = e.responseBody ?? '';
    const field = body.includes('_token"') ? TOKEN_FIELDS.exec(body)?.[1] : undefined;
    if (field) found.push(`a token field (${field})`);
  }
  return [...new Set(found)];
}
