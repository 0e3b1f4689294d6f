// The vitest reporter of conformance runs: gathers the checks (their meta.conformance), builds the
// results and writes reports/results.json, summary.md and index.html, then prints the closing
// table. JUnit is vitest's own reporter (vitest.config.ts). A reporter failure never breaks the
// run: it prints one line and the CLI, finding no results, exits 2.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type {
  Reporter,
  SerializedError,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node';
import type { TargetInfo } from '../checks/meta.ts';
import { loadSettings, secretValues } from '../config/index.ts';
import { collect, SELF_PROJECT } from './collect.ts';
import { renderConsoleTable } from './console-table.ts';
import { reportsDir } from './reports-dir.ts';
import { buildResults } from './results.ts';
import { createScrubber, type Scrubber } from './scrub.ts';
import { toolOf } from './tool.ts';
import { REPORT_FILES, rotateReports, writeReports } from './write-reports.ts';
import '../checks/meta.ts';

export interface ConformanceReporterOptions {
  /** Folder of the reports, relative to the vitest root (default: CONFORMANCE_REPORTS_DIR or `reports`). */
  outputDir?: string;
  /** Where the closing table goes (default stdout). */
  write?: (text: string) => void;
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

export default class ConformanceReporter implements Reporter {
  private readonly options: ConformanceReporterOptions;
  private root = process.cwd();
  private startedAt = new Date();
  private active = false;
  private junitScrubber: Scrubber | undefined;

  constructor(options: ConformanceReporterOptions = {}) {
    this.options = options;
  }

  private get dir(): string {
    return resolve(this.root, this.options.outputDir ?? reportsDir());
  }

  private print(text: string): void {
    (this.options.write ?? ((t: string) => process.stdout.write(t)))(text);
  }

  private warn(what: string, error: unknown): void {
    this.print(`\nconformance reporter: could not ${what}: ${oneLine(error)}\n`);
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.startedAt = new Date();
    // vitest's JUnit reporter writes its file itself: scrub it once everything is closed.
    vitest.onClose(() => this.scrubJunit());
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    this.startedAt = new Date();
    // A run of the self-tests alone leaves the conformance reports alone.
    this.active = specifications.some((s) => s.project.name !== SELF_PROJECT);
    if (!this.active) return;
    try {
      await rotateReports(this.dir);
    } catch (error) {
      this.warn('prepare the reports folder', error);
    }
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    try {
      const collected = collect(modules, unhandledErrors, reason);
      if (!this.active && collected.conformanceModules === 0) return;
      const { info, secrets } = this.targetOf(modules);
      const scrubber = createScrubber(secrets);
      this.junitScrubber = scrubber;
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
        problems: collected.problems,
        selfTests: collected.selfTests,
      });
      const results = await writeReports(this.dir, built, scrubber);
      this.print(scrubber.text(renderConsoleTable(results, this.reportPaths())));
    } catch (error) {
      this.warn('write the reports', error);
    }
  }

  /** The target as global setup provided it; from the configuration when it did not (merged shards). */
  private targetOf(modules: ReadonlyArray<TestModule>): { info: TargetInfo; secrets: string[] } {
    const project = modules.find((m) => m.project.name !== SELF_PROJECT)?.project;
    const provided = project?.getProvidedContext();
    const loaded = loadSettings();
    const fromEnv = loaded.ok ? secretValues(loaded.settings) : [];
    const secrets = [...new Set([...(provided?.target ? secretValues(provided.target) : []), ...fromEnv])];
    if (provided?.targetInfo) return { info: provided.targetInfo, secrets };
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
    const files: string[] = [REPORT_FILES.results, REPORT_FILES.summary, REPORT_FILES.html];
    if (existsSync(join(this.dir, REPORT_FILES.junit))) files.push(REPORT_FILES.junit);
    // Relative when inside the working directory; a folder elsewhere (/tmp/...) is named whole.
    return files.map((f) => {
      const path = join(this.dir, f);
      const rel = relative(process.cwd(), path);
      return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
    });
  }

  private async scrubJunit(): Promise<void> {
    const scrubber = this.junitScrubber;
    const path = join(this.dir, REPORT_FILES.junit);
    if (!scrubber || !existsSync(path)) return;
    try {
      const text = await readFile(path, 'utf8');
      const clean = scrubber.text(text);
      if (clean !== text) await writeFile(path, clean);
    } catch (error) {
      this.warn('scrub junit.xml', error);
    }
  }
}
