// The command that runs a generated failure again: the run's seed (and its budget when it was not
// the default) with the failing rule, shown whole on a line of its own in every report.
import { DEFAULT_BUDGET, type GenerationSettings } from './settings.ts';

export function replayCommand(settings: Pick<GenerationSettings, 'seed' | 'budget'>, rule: string): string {
  const budget = settings.budget === DEFAULT_BUDGET ? '' : ` CONFORMANCE_GENERATED=${settings.budget}`;
  return `CONFORMANCE_SEED=${settings.seed}${budget} npm run conformance -- --rule ${rule}`;
}
