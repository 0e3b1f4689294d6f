// What results.json keeps of each body (src/report/write-reports.ts): a passing check's answers cut
// to 16 KiB, with the recorder's mark and the total the first cut gave; the evidence of a failed or
// skipped check, and every request body, as the recorder kept them (issue 30: a target that fills
// every answer was written in full under each of the checks that shared it).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonText } from '../../common/safe-text.ts';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { cutBody, MAX_RECORDED_BODY, wasCut } from '../../src/client/recorder.ts';
import { type Har, renderHar } from '../../src/report/har.ts';
import type { CheckResult, ConformanceResults } from '../../src/report/types.ts';
import { PASSING_ANSWER_KEPT, REPORT_FILES, writeReports } from '../../src/report/write-reports.ts';
import { FIXTURE_CHECKS, fixtureResults } from './fixture.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const LONG = `{"path":"${'/'.repeat(60_000)}x"}`;
/** A body the recorder already cut at 64 KiB, of a 5 MiB answer. */
const CUT_BEFORE = cutBody(`{"path":"${'/'.repeat(5 * 1024 * 1024)}"}`);

function withBodies(status: CheckResult['status'], id: string): CheckResult {
  const base = FIXTURE_CHECKS[0] as CheckResult;
  const exchange = base.exchanges[0] as CheckResult['exchanges'][number];
  return {
    ...base,
    id,
    status,
    exchanges: [
      { ...exchange, requestBody: LONG, responseBody: LONG, startedAt: '2026-01-05T10:00:01.000Z' },
      { ...exchange, responseBody: CUT_BEFORE, startedAt: '2026-01-05T10:00:02.000Z' },
      { ...exchange, responseBody: '{"short":true}', startedAt: '2026-01-05T10:00:03.000Z' },
    ],
  };
}

async function written(checks: CheckResult[]): Promise<ConformanceResults & { har: Har }> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-kept-'));
  dirs.push(dir);
  const har = {
    path: join(dir, 'run.har'),
    render: (r: ConformanceResults) => jsonText(renderHar(r, (v) => v)),
  };
  await writeReports(dir, fixtureResults({ checks }), createSecretFilter([]), undefined, { har });
  const results = JSON.parse(await readFile(join(dir, REPORT_FILES.results), 'utf8')) as ConformanceResults;
  return { ...results, har: JSON.parse(await readFile(har.path, 'utf8')) as Har };
}

describe('the bodies results.json keeps', () => {
  it("cuts a passing check's long answers to 16 KiB, marked with their whole length", async () => {
    const [check] = (await written([withBodies('passed', 'TOK-VALID')])).checks;
    const [long, before, short] = check?.exchanges ?? [];
    expect(long?.responseBody?.length).toBeLessThan(PASSING_ANSWER_KEPT + 60);
    expect(long?.responseBody?.startsWith(LONG.slice(0, PASSING_ANSWER_KEPT))).toBe(true);
    expect(wasCut(long?.responseBody ?? '')).toBe(true);
    expect(long?.responseBody?.endsWith(`[truncated, ${LONG.length} characters in all]`)).toBe(true);
    // Cut a second time, the mark still gives the answer's own length, not the first cut's.
    expect(before?.responseBody?.endsWith(`[truncated, ${5 * 1024 * 1024 + 11} characters in all]`)).toBe(
      true,
    );
    expect(before?.responseBody?.length).toBeLessThan(PASSING_ANSWER_KEPT + 60);
    expect(short?.responseBody).toBe('{"short":true}');
    // The request reproduces the exchange: never cut here.
    expect(long?.requestBody).toBe(LONG);
  });

  it.each(['failed', 'skipped'] as const)('keeps what the recorder kept for a %s check', async (status) => {
    const [check] = (await written([withBodies(status, 'TOK-VALID')])).checks;
    const [long, before] = check?.exchanges ?? [];
    expect(long?.responseBody).toBe(LONG);
    expect(before?.responseBody).toBe(CUT_BEFORE);
    expect(CUT_BEFORE.length).toBeGreaterThan(MAX_RECORDED_BODY);
  });

  it('writes an answer a passing and a failed check shared whole in the HAR', async () => {
    const { har } = await written([withBodies('passed', 'TOK-VALID'), withBodies('failed', 'TOK-WRONG')]);
    const texts = har.log.entries.map((e) => e.response.content.text);
    expect(texts).toContain(LONG);
    expect(texts).toContain(CUT_BEFORE);
    expect(
      texts.some((t) => t !== undefined && t.length < LONG.length && t.endsWith('characters in all]')),
    ).toBe(false);
  });
});
