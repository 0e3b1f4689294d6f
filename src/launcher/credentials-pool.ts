// RELEASE_CREDENTIALS_FILE: one client credential per runner of a split release run, so N runners
// do not meet a per-credential rate limit N times sooner. The file is a JSON array of
// { "clientId": "...", "clientSecret": "..." } (client_id/client_secret also read); runner i uses
// entry i. Without it every runner uses the configured CLIENT_ID, and the report says the limiter
// saw their sum. Errors name the entry, never a secret.
import { readFileSync } from 'node:fs';
import { firstLine } from '../client/errors.ts';

export interface ClientCredential {
  clientId: string;
  clientSecret: string;
}

export class CredentialsPoolError extends Error {}

function field(entry: Record<string, unknown>, camel: string, snake: string): string | undefined {
  const value = entry[camel] ?? entry[snake];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The pool, or undefined when RELEASE_CREDENTIALS_FILE is unset; throws one line when it is unusable. */
export function readCredentialsPool(env: NodeJS.ProcessEnv, runners: number): ClientCredential[] | undefined {
  const file = env.RELEASE_CREDENTIALS_FILE?.trim();
  if (!file) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    // JSON.parse's message may quote the file's text, secrets included: only say where.
    const reason = error instanceof SyntaxError ? 'it is not JSON' : firstLine(error);
    throw new CredentialsPoolError(`RELEASE_CREDENTIALS_FILE ${file}: ${reason}`);
  }
  if (!Array.isArray(parsed)) {
    throw new CredentialsPoolError(
      `RELEASE_CREDENTIALS_FILE ${file}: expected a JSON array of { "clientId", "clientSecret" }`,
    );
  }
  const pool = parsed.map((entry, i) => {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const clientId = field(e, 'clientId', 'client_id');
    const clientSecret = field(e, 'clientSecret', 'client_secret');
    if (!clientId || !clientSecret) {
      throw new CredentialsPoolError(
        `RELEASE_CREDENTIALS_FILE ${file}: entry ${i + 1} needs a clientId and a clientSecret`,
      );
    }
    return { clientId, clientSecret };
  });
  if (new Set(pool.map((c) => c.clientId)).size !== pool.length) {
    throw new CredentialsPoolError(
      `RELEASE_CREDENTIALS_FILE ${file}: a client id appears twice (the limiter would count those runners together)`,
    );
  }
  if (pool.length < runners) {
    throw new CredentialsPoolError(
      `RELEASE_CREDENTIALS_FILE ${file} holds ${pool.length} credentials for ${runners} runners: give each runner its own`,
    );
  }
  return pool;
}

/** What the report says of the credentials: which client each runner used, or that they shared one. */
export function credentialsFigure(
  pool: ClientCredential[] | undefined,
  runners: number,
  shared: string,
): string {
  if (pool) {
    return `each runner its own client (${pool
      .slice(0, runners)
      .map((c, i) => `runner-${i + 1}: ${c.clientId}`)
      .join(', ')}): a per-credential limiter saw each runner's share`;
  }
  if (runners === 1) return `one runner, client ${shared}`;
  return `all ${runners} runners used client ${shared}: a per-credential limiter saw the sum of their traffic (RELEASE_CREDENTIALS_FILE gives each its own)`;
}
