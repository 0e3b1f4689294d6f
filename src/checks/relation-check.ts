// A check that sent the other form of a question judges the pair itself, with the relations of the
// run (relations.ts): the first breach fails it with both exchanges and a command repeating both;
// nothing to compare is inconclusive.
import type { CheckContext } from './define.ts';
import { bothCommands, relationBreaches } from './relations.ts';

export function expectRelations(t: CheckContext, ids: readonly string[]): void {
  const seen = t.client.recorder.exchanges().map((exchange) => ({ checkId: 'this check', exchange }));
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
