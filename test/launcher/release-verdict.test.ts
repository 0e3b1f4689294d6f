// The release check's verdict over its steps (src/launcher/release-verdict.ts): a failure (a MUST
// check, a threshold) fails the release, a step that could not run is exit 2, a probe that proved
// nothing is "not proved" (3), never "passed"; an interruption wins, the page being partial.
import { describe, expect, it } from 'vitest';
import {
  releaseExitCode,
  releaseMarkdown,
  type StepName,
  type StepResult,
  stepsTsv,
  stepVerdict,
} from '../../src/launcher/release-verdict.ts';

const steps = (...codes: number[]): StepResult[] =>
  (['conformance', 'rate-limit', 'flag-cache', 'release'] as StepName[])
    .slice(0, codes.length)
    .map((name, i) => ({
      name,
      command: `npm run ${name}`,
      exitCode: codes[i] as number,
    }));

describe('the release verdict', () => {
  it.each([
    [[0, 0, 0, 0], 0],
    [[0, 3, 0, 0], 3],
    [[1, 3, 0, 0], 1],
    [[0, 0, 0, 1], 1],
    [[2, 0, 3, 0], 2],
    [[0, 0, 0, 107], 2],
    [[1, 2, 0, 0], 1],
    [[0, 130], 130],
    [[1, 143], 143],
    [[], 2],
  ])('steps %j: exit %i', (codes, exit) => {
    expect(releaseExitCode(steps(...codes))).toBe(exit);
  });

  it('names each exit code', () => {
    expect([0, 1, 2, 3, 99, 130, 143].map(stepVerdict)).toEqual([
      'passed',
      'failed',
      'did not run',
      'not proved',
      'did not run',
      'interrupted',
      'interrupted',
    ]);
  });

  it('writes one line a step for the shell, without tabs or newlines inside a field', () => {
    const [first] = steps(3);
    const tsv = stepsTsv([{ ...(first as StepResult), lastLine: 'load: inconclusive\t(exit 3)\nwhy' }]);
    expect(tsv).toBe('conformance\t3\tnot proved\tnpm run conformance\tload: inconclusive (exit 3) why\n');
  });

  it('links the reports written and the HAR files on the page', () => {
    const page = releaseMarkdown(steps(0, 3), (f) => f !== 'junit.xml', ['run.har'], {
      startedAt: 'a',
      finishedAt: 'b',
      target: 'staging',
    });
    expect(page).toMatch(
      /^# Release check: not proved: nothing failed, but a probe proved nothing \(exit 3\)/,
    );
    expect(page).toContain('| rate-limit | not proved (exit 3) |');
    expect(page).toContain('[index.html](index.html)');
    expect(page).not.toContain('[junit.xml]');
    expect(page).toContain('Traffic (HAR): [run.har](run.har)');
  });
});
