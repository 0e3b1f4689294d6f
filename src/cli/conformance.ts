// npm run conformance [-- --area NAME ...] [--rule ID ...] [--check ID ...] [--last-failed] [--baseline FILE]
// Runs the conformance suites against the configured target through vitest, and exits with the
// code of the README: 0 every check passed, 1 a check failed, 2 a configuration or connection problem,
// 130 / 143 interrupted by SIGINT / SIGTERM (the reports say what ran). A run that selects checks
// (--rule, --check, --last-failed) writes its reports to <reports>/filtered/, never over the full
// run's (src/cli/selection.ts).
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { terminalText } from '../../common/safe-text.ts';
import type { HandedOver } from '../checks/meta.ts';
import { firstLine } from '../client/errors.ts';
import { applyEnvFile, formatProblems, loadSettings, resolveTarget } from '../config/index.ts';
import { reportsDir } from '../report/reports-dir.ts';
import { reportsDirProblem } from '../report/reports-dir-check.ts';
import { acquireRunLock } from '../report/run-lock.ts';
import { toolOf } from '../report/tool.ts';
import { AREAS, type Area, findRule } from '../rules/catalogue.ts';
import { tagsFilterOf } from '../rules/tags.ts';
import { handleInterrupts } from '../runner/interrupts.ts';
import { PROJECT_ROOT } from '../runner/project-root.ts';
import { settleColor } from './color.ts';
import { exitAfterOutput } from './exit.ts';
import {
  type CheckSelection,
  checkGlobs,
  checkNamePattern,
  checkPatternProblem,
  FILTERED_FOLDER,
  lastFailedChecks,
  selectionText,
} from './selection.ts';

const USAGE = `usage: npm run conformance [-- --area NAME ...] [--rule ID ...] [--check ID ...] [--last-failed]
                           [--baseline FILE] [--list-rules] [--verbose] [--har FILE] [--version]
  --area NAME      run only the suites of these spec areas (${AREAS.join(', ')})
  --rule ID        run only the checks of these rules (e.g. PAG-12); a check id is taken as --check
  --check ID       run only these checks, by the id a failure prints (PAG-BEYOND-STATUS); * and ?
                   match any characters (--check 'PAG-BEYOND-*'); several allowed
  --last-failed    run again exactly the checks that failed in the last complete run of this target
  --baseline FILE  compare with this results.json in place of the last complete run of this target
  --list-rules     list the rule catalogue with the checks that cover each rule
  --verbose        keep the stack frames of check failures, for debugging the suite
  --har FILE       write the run's exchanges as HAR 1.2, secrets replaced (in CI: reports/run.har)
  --version        print the suite's name and version
  -h, --help       this text

A run with --rule, --check or --last-failed writes its reports to <reports>/${FILTERED_FOLDER}/, beside
the full run's, never over them; only a complete, unfiltered run becomes the comparison point of the
next run (<reports>/history/). npm run compare -- A.json B.json diffs any two results files.

variables (.env or the environment; docs/configuration.md lists them all):
  CONFORMANCE_TARGET       local (the embedded reference server, default), staging or production
  API_BASE_URL, PETSTORE_BASE_URL, CLIENT_ID, CLIENT_SECRET, API_KEY_ID, API_KEY_SECRET
                           the target and its credentials (unless local)
  CONFORMANCE_STRICT       1: a failed SHOULD rule fails the run
  CONFORMANCE_SEED         the seed of the generated requests (a run prints its own)
  CONFORMANCE_REPORTS_DIR  folder of the reports (default reports; environment only)
  NO_COLOR                 plain output

exit codes: 0 every check passed, 1 a check failed, 2 configuration, connection or run problem,
  130 / 143 interrupted by SIGINT / SIGTERM (the reports say what ran)
docs: docs/conformance.md (selecting checks), docs/reports.md (reports, history), docs/configuration.md`;

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
        check: { type: 'string', multiple: true, default: [] },
        'last-failed': { type: 'boolean', default: false },
        baseline: { type: 'string' },
        version: { type: 'boolean', default: false },
        'list-rules': { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        har: { type: 'string' },
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
  // The reports folder is relative to the working directory (docs/reports.md); vitest runs in the
  // project's folder wherever the command starts, so its reporter is told the folder whole.
  process.env.CONFORMANCE_REPORTS_DIR = resolve(reportsDir());
  const args = parse();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (args.version) {
    const tool = toolOf(PROJECT_ROOT);
    process.stdout.write(`${tool.name} ${tool.version}\n`);
    return;
  }
  const areas = args.area.map(resolveArea);
  const selection: CheckSelection = { rules: [], checks: [], invariants: [] };
  for (const given of args.check) {
    const problem = checkPatternProblem(given);
    if (problem) fail(problem);
    selection.checks.push(given.toUpperCase());
  }
  const unknownRules: string[] = [];
  for (const given of args.rule) {
    const id = given.toUpperCase();
    if (findRule(id)) selection.rules.push(id);
    else unknownRules.push(id);
  }
  if (unknownRules.length) {
    // A check id where a rule id belongs (the id a failure prints): run it, and say how to ask.
    const { collectCheckIds } = await import('./list-rules.ts');
    const known = await collectCheckIds();
    for (const id of unknownRules) {
      if (!known.includes(id)) fail(`unknown rule or check "${id}"; see --list-rules`);
      process.stderr.write(
        `conformance: ${id} is a check, not a rule: running it (next time: --check ${id})\n`,
      );
      selection.checks.push(id);
    }
  }
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
  if (args['last-failed']) {
    // The embedded server is one target whatever its port (comparison-point.ts): no need to start it.
    const s = loaded.settings;
    const target =
      s.target === 'local'
        ? { name: s.target, apiBaseUrl: '', petstoreBaseUrl: '' }
        : { name: s.target, apiBaseUrl: s.apiBaseUrl ?? '', petstoreBaseUrl: s.petstoreBaseUrl ?? '' };
    const last = await lastFailedChecks(reportsDir(), target);
    if ('problem' in last) fail(last.problem);
    if (last.checks.length === 0) {
      process.stdout.write(`conformance: ${last.none}: nothing to run again\n`);
      return;
    }
    process.stderr.write(
      `conformance: running again the ${last.checks.length} failed check${last.checks.length === 1 ? '' : 's'} of ${last.of}\n`,
    );
    selection.lastFailed = last.checks;
    if (last.sources.length) {
      process.stderr.write(
        `conformance: and ${last.sources.join(', ')}, whose answers the failed invariants judged\n`,
      );
      selection.checks.push(...last.sources);
    }
  }
  if (args.baseline !== undefined) {
    const { readPrevious } = await import('../report/history.ts');
    const read = await readPrevious(args.baseline);
    if (!read.previous) fail(`--baseline ${args.baseline} ${read.unreadable ?? 'does not exist'}`);
  }
  const described = selectionText(selection);
  // A selection writes its own report set beside the full run's (the reporter, in this process,
  // finds the folder through reportsDir()).
  const historyDir = reportsDir();
  if (described) process.env.CONFORMANCE_REPORTS_DIR = join(historyDir, FILTERED_FOLDER);

  // The reports must have somewhere to go, and no other run may be writing there: checked before
  // any request, so a run never learns at its end that it cannot report.
  const folderProblem = (await reportsDirProblem(reportsDir())) ?? acquireRunLock(reportsDir());
  if (folderProblem) fail(folderProblem);

  // A remote target that is unreachable or wrongly set up: one line and exit 2, before vitest even
  // starts (and before it takes a second to import).
  const startedAt = new Date();
  // What the run needs beyond the suites travels with vitest's provide, never the environment.
  const handedOver: HandedOver = {
    settings: loaded.settings,
    ...(args.verbose ? { verbose: true } : {}),
    ...(described ? { selection: described } : {}),
    // Selected by id alone (no --rule, whose invariants are asked for with it).
    ...(checkGlobs(selection).length && !selection.rules.length
      ? { selectedChecks: checkGlobs(selection) }
      : {}),
    ...(args.baseline !== undefined ? { baseline: args.baseline } : {}),
    // Compared with the full run's comparison point, which lives beside the full run's reports.
    ...(described ? { historyDir } : {}),
    ...(args.har ? { har: resolve(args.har) } : {}),
  };
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
    handedOver.diagnosis = {
      ...(diagnosis.petstoreUnavailable ? { petstoreUnavailable: diagnosis.petstoreUnavailable } : {}),
      exchanges: diagnosis.exchanges ?? [],
    };
  }

  settleColor(process.env, process.stdout.isTTY === true);
  // Loaded only now: vitest takes a second to import, which a configuration error need not wait for.
  const { runSuites } = await import('../runner/run-suites.ts');
  // Checks carry their rule ids and area as tags (src/rules/tags.ts): the selection is a tags filter;
  // the files of other areas are not even loaded.
  // Rules and checks together select either (vitest would AND a tags filter and a name pattern):
  // the rules' checks join the selected ones by id.
  const byId = selection.checks.length > 0 || selection.lastFailed !== undefined;
  if (byId && selection.rules.length) {
    const { collectCoverage } = await import('./list-rules.ts');
    const coverage = await collectCoverage();
    const { invariantChecks } = await import('../checks/invariants.ts');
    const invariants = new Set(invariantChecks().map((c) => c.id));
    // The invariants of those rules are judged over the selected checks' answers anyway.
    const ofRules = selection.rules
      .flatMap((id) => coverage.get(id) ?? [])
      .filter((id) => !invariants.has(id));
    selection.checks.push(...new Set(ofRules));
  }
  const tagsFilter = tagsFilterOf({ areas, rules: byId ? [] : selection.rules });
  // Checks are selected by their id, the first word of their test's name.
  const testNamePattern = await checkNamePattern(selection);
  if (selection.invariants.length) {
    process.stderr.write(
      `conformance: ${selection.invariants.join(', ')} judge${selection.invariants.length === 1 ? 's' : ''} every answer of the run: every check runs\n`,
    );
  }
  // The exit code is the one the conformance reporter decided from the checks' outcomes
  // (src/report/outcome.ts); no results means the run ended before it could report.
  // The event loop emptied while the suites were awaited (a setup step that never settles, such as
  // an embedded server that never listens): without this the process would end with code 0 having
  // checked nothing. A finished run leaves by process.exit, which never emits beforeExit.
  process.once('beforeExit', () =>
    fail('the run stopped before any result: a setup step never finished (nothing was left to wait for)'),
  );
  const exitCode = await runSuites(
    {
      files: areas.map((a) => `suites/${a}.test.ts`),
      ...(tagsFilter ? { tagsFilter } : {}),
      ...(testNamePattern ? { testNamePattern } : {}),
    },
    interrupts,
    handedOver,
  );
  if (exitCode !== undefined) await exitAfterOutput(exitCode);
  fail(`the run ended without results (reports in ${reportsDir()}); see the messages above`);
}

main().catch((error: unknown) => fail(firstLine(error)));
