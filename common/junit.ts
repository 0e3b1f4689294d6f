// The one JUnit XML writer: the conformance reports (src/report/junit.ts, the reports of a run that
// stopped early) and the k6 summaries (load/lib/summary/junit.ts) describe their cases as data and
// this writes them, counts and escaping included (xmlText: every value may hold the target's words).
// k6-safe: no Node or k6 imports.
import { xmlText } from './safe-text.ts';

export interface JunitOutcome {
  /** One line: CI interfaces show it as the headline. */
  message: string;
  /** What kind of failure (the check's level, "RunProblem"). */
  type?: string;
  /** The whole story, shown when the case is opened. */
  body?: string;
}

export interface JunitCase {
  classname: string;
  name: string;
  /** Seconds. */
  time?: number;
  failure?: JunitOutcome;
  error?: JunitOutcome;
  /** Why the case was skipped. */
  skipped?: string;
}

export interface JunitSuite {
  name: string;
  timestamp?: string;
  /** Seconds; the sum of the cases' times when not given. */
  time?: number;
  properties?: Readonly<Record<string, string>>;
  cases: readonly JunitCase[];
}

export interface JunitDocument {
  name: string;
  /** Seconds. */
  time: number;
  suites: readonly JunitSuite[];
}

const seconds = (s: number | undefined) => Math.max(0, s ?? 0).toFixed(3);

function counts(cases: readonly JunitCase[]) {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error && !c.failure).length,
    skipped: cases.filter((c) => c.skipped !== undefined && !c.failure && !c.error).length,
  };
}

const countAttributes = (n: ReturnType<typeof counts>) =>
  `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}"`;

function outcomeXml(tag: 'failure' | 'error', o: JunitOutcome): string {
  const type = o.type === undefined ? '' : ` type="${xmlText(o.type)}"`;
  const open = `      <${tag} message="${xmlText(o.message)}"${type}`;
  return o.body === undefined ? `${open}/>` : `${open}>${xmlText(o.body)}</${tag}>`;
}

function caseXml(c: JunitCase): string[] {
  const open = `    <testcase classname="${xmlText(c.classname)}" name="${xmlText(c.name)}" time="${seconds(c.time)}"`;
  const inner = c.failure
    ? outcomeXml('failure', c.failure)
    : c.error
      ? outcomeXml('error', c.error)
      : c.skipped !== undefined
        ? `      <skipped message="${xmlText(c.skipped)}"/>`
        : undefined;
  return inner === undefined ? [`${open}/>`] : [`${open}>`, inner, '    </testcase>'];
}

function suiteXml(s: JunitSuite): string[] {
  const time = s.time ?? s.cases.reduce((sum, c) => sum + (c.time ?? 0), 0);
  const timestamp = s.timestamp === undefined ? '' : ` timestamp="${xmlText(s.timestamp)}"`;
  const props = Object.entries(s.properties ?? {});
  return [
    `  <testsuite name="${xmlText(s.name)}"${timestamp} ${countAttributes(counts(s.cases))} time="${seconds(time)}">`,
    ...(props.length
      ? [
          '    <properties>',
          ...props.map(([k, v]) => `      <property name="${xmlText(k)}" value="${xmlText(v)}"/>`),
          '    </properties>',
        ]
      : []),
    ...s.cases.flatMap(caseXml),
    '  </testsuite>',
  ];
}

export function renderJunitXml(doc: JunitDocument): string {
  const all = doc.suites.flatMap((s) => s.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(doc.name)}" ${countAttributes(counts(all))} time="${seconds(doc.time)}">`,
    ...doc.suites.flatMap(suiteXml),
    '</testsuites>',
    '',
  ].join('\n');
}
