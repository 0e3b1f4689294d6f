// A run that stopped before any check (the target cannot be reached) still leaves the four reports:
// valid, exit code 2, the reason named in each, no secret in any of them.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProblemRun } from '../../src/report/problem-run.ts';

const SECRET = 'problem-run-secret-51ab7c';
const REASON = `cannot reach the target: connection refused by 127.0.0.1:9 <&> "${SECRET}"`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'problem-run-'));
  // A previous run's results: the history must survive a run that checked nothing.
  await writeFile(join(dir, 'results.json'), '{"not": "results"}');
  await writeProblemRun({
    dir,
    target: {
      name: 'staging',
      apiBaseUrl: 'http://127.0.0.1:9/api/',
      petstoreBaseUrl: 'http://127.0.0.1:9/v1',
    },
    strict: false,
    startedAt: new Date(Date.now() - 1500),
    problem: REASON,
    secrets: [SECRET],
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the reports of a run that could not reach its target', () => {
  it('are the four files, none holding the secret', async () => {
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(expect.arrayContaining(['index.html', 'junit.xml', 'results.json', 'summary.md']));
    for (const file of files) expect(await readFile(join(dir, file), 'utf8')).not.toContain(SECRET);
  });

  it('results.json is valid by its schema, exit code 2, the reason as its run problem', async () => {
    const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
    const ajv = new Ajv2020.default({ allErrors: true, strict: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(await readFile('schemas/results.schema.json', 'utf8')));
    expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
    expect(results.exitCode).toBe(2);
    expect(results.checks).toEqual([]);
    expect(results.problems).toEqual([REASON.replace(SECRET, '[REDACTED]')]);
    expect(results.durationMs).toBeGreaterThanOrEqual(1000);
  });

  it('junit.xml parses and fails with the reason, so CI shows the run as broken', async () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await readFile(join(dir, 'junit.xml'), 'utf8'),
    );
    expect(xml.testsuites.errors).toBe('1');
    expect(xml.testsuites.testsuite.testcase.error.message).toBe(REASON.replace(SECRET, '[REDACTED]'));
  });

  it('summary.md and index.html name the reason', async () => {
    const summary = await readFile(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('## Run problems');
    expect(summary).toContain('connection refused by 127.0.0.1:9');
    expect(summary).not.toContain('Subset run');
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain('connection refused by 127.0.0.1:9');
  });
});
