// Rule ids and areas are vitest tags (src/rules/tags.ts), the one place they are read from: a test
// name is "ID title" for people, never parsed. These tests fail if the rules went back into the
// names, if a tag outside the catalogue were accepted, or if --rule/--area selected by name.
import { describe, expect, it } from 'vitest';
import { createVitest, type TestCase } from 'vitest/node';
import type { TargetInfo } from '../../src/checks/meta.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { AREAS, RULES } from '../../src/rules/catalogue.ts';
import { areaOfTags, areaTag, conformanceTags, rulesOfTags, tagsFilterOf } from '../../src/rules/tags.ts';

const TAGGED = 'test/rules/fixtures/tagged.fixture.ts';
const UNTAGGED = 'test/rules/fixtures/untagged.fixture.ts';

// The fixture's checks send nothing: an address nothing listens on is enough.
const target: TargetConfig = {
  target: 'staging',
  apiBaseUrl: 'http://127.0.0.1:1/api/',
  petstoreBaseUrl: 'http://127.0.0.1:1/petstore/v1',
  credentials: {
    clientId: 'c',
    clientSecret: 'tag-client-secret',
    apiKeyId: 'k',
    apiKeySecret: 'tag-key-secret',
  },
  allowProductionWrites: false,
  requestTimeoutMs: 1_000,
  strict: false,
  slow: false,
};
const targetInfo: TargetInfo = { name: 'staging', apiBaseUrl: '-', petstoreBaseUrl: '-', strict: false };

interface Ran {
  tests: TestCase[];
  moduleErrors: string[];
}

/** A nested vitest run of one fixture with the conformance tags, as the CLI would run it. */
async function run(file: string, tagsFilter?: string[]): Promise<Ran> {
  const vitest = await createVitest(
    'test',
    { config: false, watch: false, reporters: [{}], ...(tagsFilter ? { tagsFilter } : {}) },
    {
      test: {
        name: 'conformance',
        include: [file],
        tags: conformanceTags(),
        provide: { target, targetInfo },
      },
    },
  );
  try {
    await vitest.start();
    const modules = vitest.state.getTestModules();
    return {
      tests: modules.flatMap((m) => [...m.children.allTests()]),
      moduleErrors: modules.flatMap((m) => m.errors().map((e) => e.message)),
    };
  } finally {
    await vitest.close();
  }
}

const ran = (r: Ran) =>
  r.tests
    .filter((t) => t.result().state === 'passed')
    .map((t) => t.name)
    .sort();

describe('the tags of the catalogue', () => {
  it('are one per rule id and one per area, none twice', () => {
    const names = conformanceTags().map((t) => t.name);
    expect(names).toEqual([...RULES.map((r) => r.id), ...AREAS.map(areaTag)]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('read back: the area and the rules of a tag list', () => {
    const tags = [areaTag('errors'), 'ERR-01', 'ERR-02'];
    expect(areaOfTags(tags)).toBe('errors');
    expect(rulesOfTags(tags)).toEqual(['ERR-01', 'ERR-02']);
    expect(areaOfTags(['ERR-01'])).toBeUndefined();
  });

  it('make the filter of a selection: any of the areas, and any of the rules', () => {
    expect(tagsFilterOf({ areas: [], rules: [] })).toBeUndefined();
    expect(tagsFilterOf({ areas: ['errors'], rules: ['ERR-01', 'PAG-12'] })).toEqual([
      'area:errors',
      '(ERR-01 || PAG-12)',
    ]);
  });
});

// Nested vitest runs: seconds each alone, but the self project's 20 s failed the selection test
// beside other test files on a busy 2-core machine. Only a hang outlasts this.
describe('checks as vitest sees them', { timeout: 300_000 }, () => {
  it('are named for people and tagged with their rules and area', async () => {
    const result = await run(TAGGED);
    expect(result.moduleErrors).toEqual([]);
    const byName = new Map(result.tests.map((t) => [t.name, t.tags]));
    expect(byName).toEqual(
      new Map([
        ['TG-ENVELOPE the envelope', [areaTag('customers-pagination'), 'PAG-01']],
        ['TG-SHOWING showing items', [areaTag('customers-pagination'), 'PAG-03', 'PAG-01']],
        ['TG-MESSAGE the message', [areaTag('errors'), 'ERR-01']],
      ]),
    );
  });

  it('are selected by rule and by area through the tags filter (the --rule and --area of the CLI)', async () => {
    expect(ran(await run(TAGGED, tagsFilterOf({ areas: [], rules: ['PAG-01'] })))).toEqual([
      'TG-ENVELOPE the envelope',
      'TG-SHOWING showing items',
    ]);
    expect(ran(await run(TAGGED, tagsFilterOf({ areas: [], rules: ['PAG-03', 'ERR-01'] })))).toEqual([
      'TG-MESSAGE the message',
      'TG-SHOWING showing items',
    ]);
    expect(ran(await run(TAGGED, tagsFilterOf({ areas: ['errors'], rules: [] })))).toEqual([
      'TG-MESSAGE the message',
    ]);
    expect(ran(await run(TAGGED, tagsFilterOf({ areas: ['errors'], rules: ['PAG-01'] })))).toEqual([]);
  });

  it('refuse a tag the catalogue does not define', async () => {
    const result = await run(UNTAGGED);
    expect(result.tests).toEqual([]);
    expect(result.moduleErrors.join('\n')).toMatch(/"NOPE-99" is not defined/);
  });
});

describe('the conformance suites', { timeout: 300_000 }, () => {
  it('tag every check with one area and its rules; no name carries rule ids', async () => {
    const vitest = await createVitest('test', { project: ['conformance'], watch: false, reporters: [{}] });
    try {
      const { testModules } = await vitest.collect();
      const tests = testModules.flatMap((m) => [...m.children.allTests()]);
      expect(tests.length).toBeGreaterThan(50);
      for (const test of tests) {
        expect(areaOfTags(test.tags), test.name).toBeDefined();
        expect(rulesOfTags(test.tags).length, test.name).toBeGreaterThan(0);
        expect(test.name, 'a test name is for people: no rule ids').not.toMatch(/\[[A-Z]+-\d+/);
      }
    } finally {
      await vitest.close();
    }
  });
});
