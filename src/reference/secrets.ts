// Secret comparison in constant time: digests first, so lengths leak nothing either.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** An opaque random string (tokens, generated key ids and secrets). */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
