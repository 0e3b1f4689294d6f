// The vitest reporter of conformance runs: gathers the checks (their outcome, src/report/outcome.ts),
// builds the results and writes reports/results.json, summary.md, index.html and junit.xml from
// them, then prints the closing table. The CLI takes its exit code from `conformanceResults` here,
// not from the file. A reporter failure never breaks the run: it prints one line and the CLI,
// finding no results, exits 2.
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type {
  Reporter,
  SerializedError,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { invariantResults, prepareInvariants } from '../checks/invariants.ts';
import type { HandedOver, TargetInfo } from '../checks/meta.ts';
import { learnedValues } from '../client/learned-secrets.ts';
import type { RecordedExchange } from '../client/types.ts';
import { loadSettings, secretValues } from '../config/index.ts';
import { conformanceArgs, runReplayCommand } from '../generate/replay.ts';
import { matchesCheck } from './check-globs.ts';
import { collect, SELF_PROJECT } from './collect.ts';
import { renderConsoleTable } from './console-table.ts';
import { harPathOf, renderHar } from './har.ts';
import { interruptedBy, interruptionProblem, SIGNAL_EXIT_CODES } from './interruption.ts';
import { reportsDir } from './reports-dir.ts';
import { makeFolder } from './reports-dir-check.ts';
import { reportsWriting } from './reports-settled.ts';
import { buildResults } from './results.ts';
import { acquireRunLock, releaseRunLock } from './run-lock.ts';
import { toolOf } from './tool.ts';
import type { ConformanceResults } from './types.ts';
import { REPORT_FILES, writeReports } from './write-reports.ts';
import '../checks/meta.ts';
import { jsonText } from '../../common/safe-text.ts';
import { firstLine } from '../client/errors.ts';

export interface ConformanceReporterOptions {
  /** Folder of the reports, relative to the vitest root (default: CONFORMANCE_REPORTS_DIR or `reports`). */
  outputDir?: string;
  /** Where the closing table goes (default stdout). */
  write?: (text: string) => void;
  /** Judge the invariants over every exchange (src/checks/invariants.ts); default true. */
  invariants?: boolean;
}

export default class ConformanceReporter implements Reporter {
  private readonly options: ConformanceReporterOptions;
  private root = process.cwd();
  private startedAt = new Date();
  private active = false;
  /** Set when another run holds the reports folder: this run writes nothing there. */
  private lockedOut: string | undefined;
  /** The reports of the current run, being written or written: written once (interrupts.ts). */
  private writing: Promise<void> | undefined;
  /** The self-tests run in the same vitest run (npm test): the closing line, not ours, is its result. */
  private besideSelfTests = false;
  /** The invariants' documents are read (or need not be) this run. */
  private prepared = false;
  /** Where this run's HAR was written, if anywhere (listed with the reports). */
  private harPath: string | undefined;
  /** The results of the last run as written (exit code included): what the CLI exits with. */
  conformanceResults: ConformanceResults | undefined = undefined;

  constructor(options: ConformanceReporterOptions = {}) {
    this.options = options;
  }

  private get dir(): string {
    return resolve(this.root, this.options.outputDir ?? reportsDir());
  }

  /** vitest's output stream: the closing table follows the tree on the same stream. */
  private output: { write(text: string): unknown } = process.stdout;

  private print(text: string): void {
    (this.options.write ?? ((t: string) => this.output.write(t)))(text);
  }

  private warn(what: string, error: unknown): void {
    this.print(`\nconformance reporter: could not ${what}: ${firstLine(error)}\n`);
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.output = vitest.logger.outputStream;
    this.startedAt = new Date();
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    this.startedAt = new Date();
    this.conformanceResults = undefined;
    // A run of the self-tests alone leaves the conformance reports alone.
    this.active = specifications.some((s) => s.project.name !== SELF_PROJECT);
    this.besideSelfTests = specifications.some((s) => s.project.name === SELF_PROJECT);
    this.writing = undefined;
    if (!this.active) return;
    this.prepared = this.options.invariants === false;
    await this.prepareFolder();
  }

  /**
   * Off the run's end: the documents and the error schema the invariants judge with, read once the
   * first test file has started (this thread then waits on the workers). Read at the run's start,
   * they held the workers' start back by 0.2 s.
   */
  onTestModuleStart(): void {
    if (this.prepared || !this.active) return;
    this.prepared = true;
    setTimeout(prepareInvariants, 0);
  }

  /**
   * Locks the folder (the CLI has already, unless vitest runs directly). The last run's reports stay
   * in place until this run has a verdict (write-reports.ts).
   */
  private async prepareFolder(): Promise<void> {
    try {
      // A folder that cannot be made is named as such, not as a lock that could not be taken.
      await makeFolder(this.dir);
      this.lockedOut = acquireRunLock(this.dir);
      if (this.lockedOut) {
        this.print(`\nconformance reporter: ${this.lockedOut}; this run writes no report\n`);
        return;
      }
    } catch (error) {
      this.warn('prepare the reports folder', error);
    }
  }

  /**
   * The run was interrupted and its checks in flight did not finish in time: the reports with what
   * is known now (finished checks keep their outcome, the rest are not run). Once per run.
   */
  async writeInterrupted(modules: ReadonlyArray<TestModule>): Promise<void> {
    if (this.writing) return this.writing;
    if (!this.active) {
      // Interrupted before the first check started (global setup still running).
      this.active = true;
      await this.prepareFolder();
    }
    await this.onTestRunEnd(modules, [], 'interrupted');
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    // The folder is free again once this run's reports are in place (npm test runs the CLI after
    // the conformance project, in the same folder).
    this.writing ??= this.report(modules, unhandledErrors, reason).finally(() => {
      if (!this.lockedOut) releaseRunLock(this.dir);
    });
    reportsWriting(this.writing);
    return this.writing;
  }

  private async report(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    try {
      const collected = collect(modules, unhandledErrors, reason);
      if (!this.active && collected.conformanceModules === 0) return;
      if (this.lockedOut) return;
      const signal = interruptedBy();
      if (signal) {
        // One problem naming the signal in place of vitest's plain "interrupted".
        collected.problems = [
          interruptionProblem(signal),
          ...collected.problems.filter((p) => !p.startsWith('the run was interrupted')),
        ];
      }
      const { info, secrets, handedOver, setupExchanges } = this.targetOf(modules);
      // A selection that matched nothing is the command's mistake, said as such (exit 2).
      if (handedOver?.selection && collected.checks.length === 0 && !signal) {
        collected.problems.push(
          `no check matches ${handedOver.selection}: a check id is the first word a failure prints; npm run conformance -- --list-rules lists them by rule`,
        );
      }
      // Rules of every answer of a kind, judged once over the exchanges of every check (issue 24).
      if (this.options.invariants !== false) {
        const judged = invariantResults(
          collected.checks,
          info,
          info.strict,
          collected.filtered,
          setupExchanges,
        );
        // Checks selected by id (--check, --last-failed): only the invariants they name.
        const only = handedOver?.selectedChecks;
        const setup = new Set(setupExchanges);
        collected.checks.push(
          ...(only
            ? judged.filter(
                (v) => only.some((glob) => matchesCheck(glob, v.id)) || v.exchanges.some((e) => setup.has(e)),
              )
            : judged),
        );
      }
      // The configured secrets and the tokens the run's clients learned (they reach this thread
      // from the workers, learned-secrets.ts): a target may echo a token into any check.
      const scrubber = createSecretFilter([...secrets, ...learnedValues()]);
      const startedAt =
        collected.firstStart !== undefined && collected.firstStart < this.startedAt.getTime()
          ? new Date(collected.firstStart)
          : this.startedAt;
      const built = buildResults({
        tool: toolOf(this.root),
        target: { name: info.name, apiBaseUrl: info.apiBaseUrl, petstoreBaseUrl: info.petstoreBaseUrl },
        startedAt,
        finishedAt: new Date(),
        strict: info.strict,
        checks: collected.checks,
        coverage: collected.coverage,
        areas: collected.areas,
        filtered: collected.filtered,
        ...(handedOver?.selection ? { selection: handedOver.selection } : {}),
        problems: collected.problems,
        selfTests: collected.selfTests,
        interrupted: signal !== undefined,
        ...(collected.generation
          ? {
              generation: {
                ...collected.generation,
                replay: runReplayCommand(collected.generation, conformanceArgs(process.argv)),
              },
            }
          : {}),
      });
      const interrupted = signal ? { ...built, exitCode: SIGNAL_EXIT_CODES[signal] } : built;
      // The run's traffic for a reviewer (--har FILE, reports/run.har in CI), from the redacted
      // results, written with the reports as one set.
      const har = harPathOf(handedOver?.har, this.dir, process.env);
      if (har) await mkdir(dirname(har), { recursive: true });
      const results = await writeReports(
        this.dir,
        interrupted,
        scrubber,
        (line) => this.print(`\nconformance reporter: ${line}\n`),
        {
          ...(handedOver?.baseline ? { baseline: handedOver.baseline } : {}),
          ...(handedOver?.historyDir ? { historyDir: handedOver.historyDir } : {}),
          // As results.json: C1 controls and bidirectional marks escaped (a terminal may show the file).
          ...(har ? { har: { path: har, render: (r) => jsonText(renderHar(r, scrubber.deep)) } } : {}),
        },
      );
      if (har) this.harPath = har;
      this.conformanceResults = results;
      this.print(
        renderConsoleTable(results, this.reportPaths(), this.besideSelfTests ? 'self-tests' : undefined),
      );
    } catch (error) {
      this.warn('write the reports', error);
    }
  }

  /**
   * The target as global setup provided it. Only when nothing was provided (merged shards: global
   * setup ran in other jobs) is the configuration read, to name the target.
   */
  private targetOf(modules: ReadonlyArray<TestModule>): {
    info: TargetInfo;
    secrets: string[];
    handedOver?: HandedOver | undefined;
    setupExchanges?: RecordedExchange[] | undefined;
  } {
    const project = modules.find((m) => m.project.name !== SELF_PROJECT)?.project;
    const provided = project?.getProvidedContext();
    if (provided?.target && provided.targetInfo) {
      return {
        info: provided.targetInfo,
        secrets: secretValues(provided.target),
        handedOver: provided.handedOver,
        setupExchanges: provided.setupExchanges,
      };
    }
    const loaded = loadSettings();
    const secrets = loaded.ok ? secretValues(loaded.settings) : [];
    const s = loaded.ok ? loaded.settings : undefined;
    const unknown = s?.target === 'local' ? '(embedded reference server)' : '(not configured)';
    return {
      info: {
        name: s?.target ?? 'local',
        apiBaseUrl: s?.apiBaseUrl ?? unknown,
        petstoreBaseUrl: s?.petstoreBaseUrl ?? unknown,
        strict: s?.strict ?? false,
      },
      secrets,
    };
  }

  private reportPaths(): string[] {
    const files: string[] = [
      REPORT_FILES.results,
      REPORT_FILES.summary,
      REPORT_FILES.html,
      REPORT_FILES.junit,
    ];
    // Relative when inside the working directory; a folder elsewhere (/tmp/...) is named whole.
    const paths = files.map((f) => join(this.dir, f));
    if (this.harPath) paths.push(this.harPath);
    return paths.map((path) => {
      const rel = relative(process.cwd(), path);
      return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
    });
  }
}
