// A check that sent the other form of a question judges the pair itself, with the relations of the
// run (relations.ts): the first breach fails it with both exchanges and a command repeating both;
// nothing to compare is inconclusive.
import type { RecordedExchange } from '../client/index.ts';
import type { CheckContext } from './define.ts';
import { bothCommands, relationBreaches } from './relations.ts';

/**
 * `earlier`: answers the check did not send itself but compares its own with (shared work it
 * attached), judged as its own; `checkId`: the check's id, for a relation that judges only checks
 * of a kind (REL-ACCEPTED-AFTER-REFUSALS: *-AFTER-REFUSALS).
 */
export function expectRelations(
  t: CheckContext,
  ids: readonly string[],
  options: { checkId?: string; earlier?: readonly RecordedExchange[] } = {},
): void {
  const checkId = options.checkId ?? 'this check';
  const seen = [...(options.earlier ?? []), ...t.client.recorder.exchanges()].map((exchange) => ({
    checkId,
    exchange,
  }));
  const bases = { apiBaseUrl: t.config.apiBaseUrl, petstoreBaseUrl: t.config.petstoreBaseUrl };
  const results = relationBreaches(seen, bases, ids);
  for (const { breaches } of results) {
    const [first] = breaches;
    if (!first) continue;
    const replay = bothCommands(first.first, first.second);
    t.fail(`${first.problem}`, { exchange: first.second, replay });
  }
  if (results.every((r) => r.judged === 0)) {
    t.skip(`inconclusive: no pair of answers to compare (${ids.join(', ')})`);
  }
}
