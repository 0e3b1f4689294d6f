// The command that runs a generated failure again: the run's seed (and its budget when it was not
// the default) with the failing rule, shown whole on a line of its own in every report.
import { DEFAULT_BUDGET, type GenerationSettings } from './settings.ts';

export function replayCommand(settings: Pick<GenerationSettings, 'seed' | 'budget'>, rule: string): string {
  const budget = settings.budget === DEFAULT_BUDGET ? '' : ` CONFORMANCE_GENERATED=${settings.budget}`;
  return `CONFORMANCE_SEED=${settings.seed}${budget} npm run conformance -- --rule ${rule}`;
}

/** The arguments the conformance CLI was given (none when vitest runs the checks, as npm test does). */
export function conformanceArgs(argv: readonly string[]): string[] {
  const at = argv.findIndex((a) => /(?:^|[\\/])src[\\/]cli[\\/]conformance\.ts$/.test(a));
  if (at < 0) return [];
  // Where the evidence went is no part of what ran: a replay does not overwrite it.
  const args = argv.slice(at + 1);
  return args.filter((a, i) => !(a === '--har' || a.startsWith('--har=') || args[i - 1] === '--har'));
}

/** A word as the shell reads it back: plain when it is safe, single-quoted otherwise. */
const word = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * The command that sends the run's generated requests again: its seed and budget, with the run's
 * own arguments (its filters), against the target the same .env names.
 */
export function runReplayCommand(
  settings: Pick<GenerationSettings, 'seed' | 'budget'>,
  args: readonly string[],
): string {
  const budget = settings.budget === DEFAULT_BUDGET ? '' : ` CONFORMANCE_GENERATED=${settings.budget}`;
  const tail = args.length ? ` -- ${args.map(word).join(' ')}` : '';
  return `CONFORMANCE_SEED=${settings.seed}${budget} npm run conformance${tail}`;
}
