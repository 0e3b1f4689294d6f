// The hand-over of the validated target from `npm run load:*` to the k6 scripts: one environment
// variable (never argv: it carries secrets) holding JSON of the table's k6 rows under their keys,
// and the reports folder. The launcher writes it (src/launcher/k6-env.ts) from the configuration
// src/config/ validated; load/lib/config.ts reads it instead of the individual variables. k6-safe.
import { VARIABLES } from './variables.ts';

export const HAND_OVER_VARIABLE = 'LOAD_TARGET';

/** What the hand-over may hold: the k6 rows' keys, and where handleSummary writes. */
export const HAND_OVER_KEYS: readonly string[] = [
  ...VARIABLES.flatMap((v) => (v.k6 && v.key !== undefined ? [v.key] : [])),
  'reportDir',
];

/** The hand-over's text: the hand-over keys of `values` (unset ones left out), nothing else. */
export function writeHandOver(values: object): string {
  const record = values as Readonly<Record<string, unknown>>;
  return JSON.stringify(Object.fromEntries(HAND_OVER_KEYS.map((key) => [key, record[key]])));
}

export type HandOverRead =
  | { ok: true; fields: Readonly<Record<string, unknown>> }
  | { ok: false; problem: string };

/** The hand-over's fields, or why the text is not one. The value is never quoted: it holds secrets. */
export function readHandOver(text: string): HandOverRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, problem: 'not a JSON object' };
  }
  // A field this version does not know means launcher and scripts disagree: refuse, do not guess.
  const unknown = Object.keys(parsed).find((key) => !HAND_OVER_KEYS.includes(key));
  if (unknown !== undefined) {
    return { ok: false, problem: `unsupported field ${JSON.stringify(unknown.slice(0, 40))}` };
  }
  return { ok: true, fields: parsed as Record<string, unknown> };
}
