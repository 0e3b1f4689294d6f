// Defence in depth: the fixture plants the configured secrets in a reason and in recorded bodies
// (as if redaction upstream had failed). Every written report and the console output must hold
// none of them, in any form a report could write them.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretFilter } from '../../common/secret-filter.ts';
import { comparisonPointPath } from '../../src/report/comparison-point.ts';
import { renderConsoleTable } from '../../src/report/console-table.ts';
import { renderHar } from '../../src/report/har.ts';
import { escapeHtml } from '../../src/report/html.ts';
import { readBackHar } from '../../src/report/read-back.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { AREAS } from '../../src/rules/catalogue.ts';
import { fixtureResults, SECRET_LIST, SECRETS } from './fixture.ts';

/** Every form in which a secret could reach a file: raw, URL-encoded, JSON-, HTML- and XML-escaped. */
function forms(secret: string): string[] {
  const html = escapeHtml(secret);
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    html,
    html.replace(/&#39;/g, '&apos;'),
    // The part before a character that escaping changes: a cut secret is still a leak.
    secret.split(/[&<>"']/)[0] ?? secret,
  ];
}

function hits(text: string): string[] {
  return SECRET_LIST.flatMap((s) => forms(s).filter((f) => f.length >= 8 && text.includes(f)));
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-secrets-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('secret scan of the reports', () => {
  it('the fixture really carries the secrets (so a zero below means something)', () => {
    const raw = JSON.stringify(fixtureResults());
    expect(raw).toContain(SECRETS.apiKeySecret);
    expect(raw).toContain(SECRETS.pinnedSecret);
    expect(raw).toContain(JSON.stringify(SECRETS.clientSecret).slice(1, -1));
  });

  it('every written file and the console output hold zero secrets', async () => {
    const scrubber = createSecretFilter(SECRET_LIST);
    // Twice, so the second run also writes the history and the previous results; every area, so
    // the first is a complete run and becomes the comparison point (history/).
    const complete = () => fixtureResults({ areas: [...AREAS] });
    await writeReports(dir, complete(), scrubber);
    const written = await writeReports(dir, complete(), scrubber);
    const point = comparisonPointPath(dir, written.target);
    const files = [...(await readdir(dir)).filter((f) => f !== 'history'), relative(dir, point)];
    expect(files.sort()).toEqual(
      [
        relative(dir, point),
        'index.html',
        'junit.xml',
        'previous-results.json',
        'results.json',
        'summary.md',
      ].sort(),
    );
    for (const f of files) expect(hits(await readFile(join(dir, f), 'utf8')), f).toEqual([]);
    expect(hits(scrubber.text(renderConsoleTable(written, [])))).toEqual([]);
    expect(written.history).toBeDefined();
  });

  it('the HAR of the run (--har, run.har in CI) holds zero secrets and is valid by its schema', async () => {
    const scrubber = createSecretFilter(SECRET_LIST);
    const written = await writeReports(dir, fixtureResults(), scrubber);
    const har = renderHar(written, scrubber.deep);
    const text = JSON.stringify(har);
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(hits(text)).toEqual([]);
    const back = readBackHar(JSON.parse(text));
    expect(back.ok ? 'valid' : back.reason).toBe('valid');
    // Even from results whose redaction upstream failed, the HAR's own pass catches them.
    expect(hits(JSON.stringify(renderHar(fixtureResults(), scrubber.deep)))).toEqual([]);
  });

  it('the scrubber replaces a secret whole, even one with characters a field pattern stops at', () => {
    const scrub = createSecretFilter([SECRETS.clientSecret]);
    expect(scrub.text(`client_secret=${SECRETS.clientSecret}`)).toBe('client_secret=[REDACTED]');
    expect(scrub.text(`x ${escapeHtml(SECRETS.clientSecret)} y`)).toBe('x [REDACTED] y');
    expect(scrub.deep({ [SECRETS.clientSecret]: [SECRETS.clientSecret] })).toEqual({
      '[REDACTED]': ['[REDACTED]'],
    });
  });
});
