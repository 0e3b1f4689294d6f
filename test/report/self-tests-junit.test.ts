// The self-tests in CI's JUnit view (issue 25 item 6): a nested vitest run of the `self` project
// through SelfTestsJunitReporter writes self-tests.junit.xml beside the conformance junit.xml, by the
// one JUnit writer: one suite per file, a case per test with its outcome, valid XML.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import SelfTestsJunitReporter, { SELF_TESTS_JUNIT } from '../../src/report/self-tests-junit.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function runSelf(name: string): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'self-junit-'));
  dirs.push(dir);
  const vitest = await createVitest(
    'test',
    { config: false, watch: false, reporters: [new SelfTestsJunitReporter({ outputDir: dir })] },
    { test: { name, include: ['test/report/fixtures/self-tests.fixture.ts'] } },
  );
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  return readFile(join(dir, SELF_TESTS_JUNIT), 'utf8').catch(() => undefined);
}

describe('self-tests.junit.xml', () => {
  it('holds every self-test with its outcome, as valid XML with no escape code', async () => {
    const xml = await runSelf('self');
    expect(xml).toBeDefined();
    expect(XMLValidator.validate(xml ?? '')).toBe(true);
    expect(xml).not.toContain('\u001b');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml ?? '');
    expect(doc.testsuites).toMatchObject({ tests: '3', failures: '1', skipped: '1', errors: '0' });
    const cases = [doc.testsuites.testsuite.testcase].flat();
    expect(cases.map((c: { name: string }) => c.name)).toEqual([
      'a module of ours > passes',
      'a module of ours > fails',
      'a module of ours > is skipped',
    ]);
    expect(cases[1].failure.message).toBe('expected 2, got 3');
    expect(doc.testsuites.testsuite.name).toBe('test/report/fixtures/self-tests.fixture.ts');
  });

  it('is not written by a run without self-tests (a conformance run)', async () => {
    expect(await runSelf('conformance')).toBeUndefined();
  });
});
