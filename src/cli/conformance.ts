// npm run conformance [-- --area NAME ...] [--rule ID ...] [--list-rules]
// Runs the conformance suites against the configured target through vitest, and exits with the
// code of the README: 0 every check passed, 1 a check failed, 2 a configuration or connection problem,
// 130 / 143 interrupted by SIGINT / SIGTERM (the reports say what ran).
import { parseArgs } from 'node:util';
import { terminalText } from '../../common/safe-text.ts';
import type { HandedOver } from '../checks/meta.ts';
import { firstLine } from '../client/errors.ts';
import { applyEnvFile, formatProblems, loadSettings, resolveTarget } from '../config/index.ts';
import { reportsDir } from '../report/reports-dir.ts';
import { reportsDirProblem } from '../report/reports-dir-check.ts';
import { acquireRunLock } from '../report/run-lock.ts';
import { AREAS, type Area, findRule } from '../rules/catalogue.ts';
import { tagsFilterOf } from '../rules/tags.ts';
import { handleInterrupts } from '../runner/interrupts.ts';
import { settleColor } from './color.ts';
import { exitAfterOutput } from './exit.ts';

const USAGE = `usage: npm run conformance [-- --area NAME ...] [--rule ID ...] [--list-rules] [--verbose]
  --area NAME   run only the suites of these spec areas (${AREAS.join(', ')})
  --rule ID     run only the checks of these rules (e.g. PAG-12)
  --list-rules  list the rule catalogue with the checks that cover each rule
  --verbose     keep the stack frames of check failures, for debugging the suite`;

function fail(message: string): never {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        area: { type: 'string', multiple: true, default: [] },
        rule: { type: 'string', multiple: true, default: [] },
        'list-rules': { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(`${firstLine(error)}\n${USAGE}`);
  }
}

/** An exact area, or the one area whose name contains the word (`pagination`). */
function resolveArea(name: string): Area {
  const exact = AREAS.find((a) => a === name);
  if (exact) return exact;
  const partial = AREAS.filter((a) => a.includes(name));
  if (partial.length === 1 && partial[0]) return partial[0];
  if (partial.length > 1) fail(`area "${name}" matches several: ${partial.join(', ')}; name one of them`);
  fail(`unknown area "${name}"; areas: ${AREAS.join(', ')}`);
}

async function main(): Promise<void> {
  // Ctrl-C and SIGTERM from the start: exit 130 / 143, with the reports of what ran (interrupts.ts).
  const interrupts = handleInterrupts();
  // .env's values of the variables read where they are used (the reports folder, the generated
  // requests' seed and budget) count as the environment's do (src/config/env-file.ts).
  applyEnvFile();
  const args = parse();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const areas = args.area.map(resolveArea);
  const rules = args.rule.map((id) => id.toUpperCase());
  for (const id of rules) if (!findRule(id)) fail(`unknown rule "${id}"; see --list-rules`);

  if (args['list-rules']) {
    // Loaded here only: collecting the suites needs vitest, which a normal run loads later.
    const { listRules } = await import('./list-rules.ts');
    process.stdout.write(await listRules());
    return;
  }

  // Configuration problems stop the run before any request.
  const loaded = loadSettings();
  for (const warning of loaded.warnings ?? []) process.stderr.write(`${warning}\n`);
  if (!loaded.ok) {
    process.stderr.write(`${formatProblems(loaded.problems)}\n`);
    process.exit(2);
  }
  // The reports must have somewhere to go, and no other run may be writing there: checked before
  // any request, so a run never learns at its end that it cannot report.
  const folderProblem = (await reportsDirProblem(reportsDir())) ?? acquireRunLock(reportsDir());
  if (folderProblem) fail(folderProblem);

  // A remote target that is unreachable or wrongly set up: one line and exit 2, before vitest even
  // starts (and before it takes a second to import).
  const startedAt = new Date();
  // What the run needs beyond the suites travels with vitest's provide, never the environment.
  const handedOver: HandedOver = { settings: loaded.settings, ...(args.verbose ? { verbose: true } : {}) };
  if (loaded.settings.target !== 'local') {
    // Loaded here: the client and the report writers take a while to load, during which a signal
    // would otherwise find no handler.
    const { preflight } = await import('../runner/preflight.ts');
    const diagnosis = await preflight(resolveTarget(loaded.settings), startedAt);
    // One line each, in the target's words made safe for a terminal and a CI log.
    if (diagnosis.problem) {
      process.stderr.write(`${terminalText(diagnosis.problem, { max: 1000 })}\n`);
      process.exit(2);
    }
    if (diagnosis.petstoreUnavailable)
      process.stderr.write(`conformance: ${terminalText(diagnosis.petstoreUnavailable, { max: 1000 })}\n`);
    handedOver.diagnosis = diagnosis.petstoreUnavailable
      ? { petstoreUnavailable: diagnosis.petstoreUnavailable }
      : {};
  }

  settleColor(process.env, process.stdout.isTTY === true);
  // Loaded only now: vitest takes a second to import, which a configuration error need not wait for.
  const { runSuites } = await import('../runner/run-suites.ts');
  // Checks carry their rule ids and area as tags (src/rules/tags.ts): the selection is a tags filter;
  // the files of other areas are not even loaded.
  const tagsFilter = tagsFilterOf({ areas, rules });
  // The exit code is the one the conformance reporter decided from the checks' outcomes
  // (src/report/outcome.ts); no results means the run ended before it could report.
  // The event loop emptied while the suites were awaited (a setup step that never settles, such as
  // an embedded server that never listens): without this the process would end with code 0 having
  // checked nothing. A finished run leaves by process.exit, which never emits beforeExit.
  process.once('beforeExit', () =>
    fail('the run stopped before any result: a setup step never finished (nothing was left to wait for)'),
  );
  const exitCode = await runSuites(
    { files: areas.map((a) => `suites/${a}.test.ts`), ...(tagsFilter ? { tagsFilter } : {}) },
    interrupts,
    handedOver,
  );
  if (exitCode !== undefined) await exitAfterOutput(exitCode);
  fail(`the run ended without results (reports in ${reportsDir()}); see the messages above`);
}

main().catch((error: unknown) => fail(firstLine(error)));
