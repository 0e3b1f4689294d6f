// The one message an invalid configuration produces: a count, then one line per problem.
import type { ConfigProblem } from './types.ts';

export function formatProblems(problems: ConfigProblem[]): string {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  const lines = problems.map((p) => `  ${p.variable}: ${p.problem}; expected ${p.expected}`);
  return [`Configuration invalid: ${count} (see .env.example)`, ...lines].join('\n');
}
