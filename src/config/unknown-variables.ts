// Variables that look like ours but are none of ours: `API_KEY_SECRT=oops` in .env would otherwise
// be ignored without a word while the run uses no API key secret (or the default). A warning, not a
// refusal: the run goes on, since an unknown variable changes nothing, but the user learns which
// known one was probably meant. Names only: a value may be a secret.
import { VARIABLES } from '../../common/variables.ts';

/** Variables of ours that the table does not list: the fuzz depth of the configuration tests. */
const ALSO_READ: readonly string[] = ['CONFIG_FUZZ_RUNS'];

export const KNOWN_NAMES: ReadonlySet<string> = new Set([...VARIABLES.map((v) => v.name), ...ALSO_READ]);

/**
 * The first words of our variables (CONFORMANCE_, API_, RATE_, ...). K6_ is left out: k6 has its own
 * variables, which the load launcher judges itself (k6-env.ts refusedK6Variables).
 */
export const OUR_PREFIXES: readonly string[] = [
  ...new Set(VARIABLES.map((v) => `${v.name.split('_')[0]}_`).filter((p) => p !== 'K6_')),
];

/**
 * How far a name may be from a known one to be called a slip: one edit, two in a long name. The
 * environment holds many other programs' variables (a CI's API_TOKEN, a RELEASE_NAME): only such a
 * near miss of ours is worth a line there. Everything in .env with our prefixes is ours to judge.
 */
function nearMiss(name: string, distance: number): boolean {
  return distance <= (name.length >= 16 ? 2 : 1);
}

/**
 * Levenshtein distance, with a swap of two neighbours counting once (the commonest slip). Three
 * rows reused: called for every unknown name against every known one.
 */
export function editDistance(a: string, b: string): number {
  let before = new Int32Array(b.length + 1);
  let above = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      row[j] = best;
    }
    [before, above, row] = [above, row, before];
  }
  return above[b.length] as number;
}

/** The known name closest to a name (the first in table order among equals), with its distance. */
export function closestKnown(name: string): { name: string; distance: number } {
  let best = { name: '', distance: Number.POSITIVE_INFINITY };
  const upper = name.toUpperCase();
  for (const known of KNOWN_NAMES) {
    // The difference in length is a lower bound of the distance: no closer one there.
    if (Math.abs(upper.length - known.length) >= best.distance) continue;
    const distance = editDistance(upper, known);
    if (distance < best.distance) best = { name: known, distance };
  }
  return best;
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function looksOurs(name: string): boolean {
  const upper = name.toUpperCase();
  return OUR_PREFIXES.some((p) => upper.startsWith(p));
}

/**
 * One line per unknown variable that looks like ours, naming the closest known one: every name of
 * .env with one of our prefixes (or a near miss of a known name), and the environment's names with
 * our prefixes that are a near miss. Sorted, each name once (.env named where it came from).
 */
export function unknownVariableWarnings(
  fromFile: readonly string[],
  fromEnvironment: readonly string[],
): string[] {
  const lines = new Map<string, string>();
  const consider = (name: string, where: '.env' | 'the environment') => {
    if (!PLAIN_NAME.test(name) || KNOWN_NAMES.has(name) || lines.has(name)) return;
    // The environment's names are judged only with our prefix (the cheap test first).
    if (where === 'the environment' && !looksOurs(name)) return;
    const closest = closestKnown(name);
    const near = nearMiss(name, closest.distance);
    const ours = where === '.env' ? looksOurs(name) || near : near;
    if (!ours) return;
    const guess = near ? `did you mean ${closest.name}?` : `the closest known one is ${closest.name}`;
    lines.set(
      name,
      `config: ${name} (in ${where}) is not a variable of this project and is ignored; ${guess} (docs/configuration.md)`,
    );
  };
  for (const name of fromFile) consider(name, '.env');
  for (const name of fromEnvironment) consider(name, 'the environment');
  return [...lines.keys()].sort().map((name) => lines.get(name) as string);
}
