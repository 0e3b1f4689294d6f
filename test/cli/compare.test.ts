// npm run compare -- A.json B.json diffs any two results files (issue 33: there was no way to compare
// two runs but the automatic history of one folder).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/rules/catalogue.ts';
import { fixtureResults } from '../report/fixture.ts';
import { runTs } from '../support/run-node.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compare-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const compare = (args: string[]) =>
  runTs('src/cli/compare.ts', args, { env: { ...process.env, NO_COLOR: '1' } });

describe('npm run compare', { timeout: 120_000 }, () => {
  it('lists what changed from A to B, newly failing first; exit 1 when a check newly fails', async () => {
    const b = fixtureResults({ areas: [...AREAS] });
    const a = {
      ...b,
      checks: b.checks.map((c) =>
        c.status === 'failed'
          ? {
              ...c,
              status: 'passed' as const,
              failure: undefined,
              reason: undefined,
              nonStrict: undefined,
              failedExchange: undefined,
            }
          : c,
      ),
    };
    await writeFile(join(dir, 'a.json'), JSON.stringify(a));
    await writeFile(join(dir, 'b.json'), JSON.stringify(b));
    const run = await compare([join(dir, 'a.json'), join(dir, 'b.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const failed = b.checks.filter((c) => c.status === 'failed').map((c) => c.id);
    expect(failed.length).toBeGreaterThan(0);
    for (const id of failed) expect(run.stdout).toMatch(new RegExp(`^${id} +passed -> failed`, 'm'));
    expect(run.stdout).toContain(`${failed.length} changed, ${failed.length} newly failing`);
    // The other way round, nothing newly fails: exit 0.
    const back = await compare([join(dir, 'b.json'), join(dir, 'a.json')]);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain(`${failed.length} changed, 0 newly failing`);
  });

  it('a file that is no results file: one line, exit 2', async () => {
    await writeFile(join(dir, 'bad.json'), '{"startedAt": 1}');
    const run = await compare([join(dir, 'bad.json'), join(dir, 'missing.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^compare: .*bad\.json is not a results file/);
    expect((await compare([])).code).toBe(2);
    const help = await compare(['--help']);
    expect([help.code, help.stdout]).toEqual([
      0,
      expect.stringMatching(/^usage: npm run compare -- A\.json B\.json/),
    ]);
  });
});
