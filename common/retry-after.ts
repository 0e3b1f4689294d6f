// Retry-After, one grammar for the suite (src/client/retry.ts) and the k6 scripts (load/): a
// delay in whole seconds or an IMF-fixdate HTTP date. k6-safe: no Node or k6 imports.

/** Milliseconds to wait, or undefined when the header is absent or malformed. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and GMT; Date.parse alone would accept far more (ISO, local times).
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** The same wait in whole seconds, rounded up (a wait cut short would be refused again). */
export function retryAfterSeconds(value: string | null | undefined, nowMs: number): number | undefined {
  const ms = parseRetryAfter(value, nowMs);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}
