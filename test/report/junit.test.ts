// junit.xml from the results: the same counts as results.json, skip reasons, non-strict SHOULD
// failures as failures of their own type, run problems as errors, and well-formed XML whatever the
// target sent.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJunit, SOFT_FAILURE_TYPE } from '../../src/report/junit.ts';
import { buildResults } from '../../src/report/results.ts';
import { fixtureInput, fixtureResults } from './fixture.ts';

type Case = {
  name: string;
  classname: string;
  failure?: { type: string; message: string; '#text'?: string };
  skipped?: { message: string };
};

function parse(xml: string) {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
  const suites = [doc.testsuites.testsuite].flat() as { name: string; testcase: Case | Case[] }[];
  return { doc, suites, cases: suites.flatMap((s) => [s.testcase].flat()) };
}

describe('renderJunit', () => {
  const results = fixtureResults();
  const xml = renderJunit(results);
  const { doc, suites, cases } = parse(xml);

  it('is well-formed XML with one testsuite per area and one testcase per check', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(suites.map((s) => s.name)).toEqual(
      results.scope.areas.filter((a) => results.checks.some((c) => c.area === a)),
    );
    expect(cases).toHaveLength(results.checks.length);
  });

  it('counts as results.json does: failures include the advice ones, marked by type as advice', () => {
    const t = results.totals.checks;
    expect(Number(doc.testsuites.failures)).toBe(t.failed);
    expect(Number(doc.testsuites.skipped)).toBe(t.skipped);
    // The fixture's one soft failure is advice (PAG-13): never labelled a SHOULD of the spec.
    expect(cases.filter((c) => c.failure?.type === 'ADVICE')).toHaveLength(t.nonStrict);
    expect(cases.filter((c) => c.failure?.type === SOFT_FAILURE_TYPE)).toHaveLength(0);
    const soft = cases.find((c) => c.failure?.type === 'ADVICE');
    expect(soft?.failure?.message).toMatch(/^advice, not the spec \(does not fail the run\): /);
  });

  it('a skip carries its reason', () => {
    const skipped = cases.filter((c) => c.skipped);
    expect(skipped).toHaveLength(results.totals.checks.skipped);
    for (const c of skipped) expect(c.skipped?.message).toMatch(/\w{4,}/);
  });

  it('a failure carries the failing exchange and a command to reproduce it', () => {
    const failed = cases.find((c) => c.failure && c.failure.type !== SOFT_FAILURE_TYPE);
    expect(failed?.failure?.['#text']).toMatch(
      /exchange #\d+ of \d+( failed|, the last before the failure): [A-Z]+ http/,
    );
    expect(failed?.failure?.['#text']).toContain('reproduce with: curl -i');
  });

  it('run problems are errors; characters XML cannot carry are replaced', () => {
    const bad = buildResults(fixtureInput({ problems: ['suites/x.test.ts could not run: \u0001boom <&>'] }));
    const text = renderJunit(bad);
    expect(XMLValidator.validate(text)).toBe(true);
    const parsed = parse(text);
    expect(Number(parsed.doc.testsuites.errors)).toBe(1);
    expect(text).toContain('type="RunProblem"');
    expect(text).not.toContain('\u0001');
  });
});
