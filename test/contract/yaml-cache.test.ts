// The parsed documents' cache (src/contract/yaml-cache.ts): a hit is the cached JSON of this very
// text, a changed text is parsed again, and what JSON cannot hold exactly is never kept.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { documentFile, loadDocument } from '../../src/contract/index.ts';
import { parsedYaml } from '../../src/contract/yaml-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'yaml-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the parsed YAML cache', () => {
  it('parses a text once, then reads it back from the file named by its hash', () => {
    const text = 'openapi: 3.1.0\ninfo: { title: t }\n';
    expect(parsedYaml(text, dir)).toEqual({ openapi: '3.1.0', info: { title: 't' } });
    const file = join(dir, `${hashOf(text)}.json`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ openapi: '3.1.0', info: { title: 't' } });
    // A hit does not parse: what the file holds is what comes back.
    writeFileSync(file, '{"from":"the cache"}');
    expect(parsedYaml(text, dir)).toEqual({ from: 'the cache' });
    // A damaged entry is parsed again (and kept anew).
    writeFileSync(file, '{"cut in ha');
    expect(parsedYaml(text, dir)).toEqual({ openapi: '3.1.0', info: { title: 't' } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ openapi: '3.1.0', info: { title: 't' } });
    // Another text, another entry.
    expect(parsedYaml(`${text}x: 1\n`, dir)).toEqual({ openapi: '3.1.0', info: { title: 't' }, x: 1 });
  });

  it('keeps nothing JSON would change, and a cache it cannot write costs only the parse', () => {
    const text = 'limit: .inf\n';
    expect(parsedYaml(text, dir)).toEqual({ limit: Number.POSITIVE_INFINITY });
    expect(readdirSync(dir).filter((f) => f.startsWith(hashOf(text)))).toEqual([]);
    const notADir = join(dir, 'a-file');
    writeFileSync(notADir, '');
    expect(parsedYaml('a: 1\n', join(notADir, 'below'))).toEqual({ a: 1 });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('gives the documents exactly as the YAML parser does', () => {
    for (const service of ['main', 'petstore'] as const) {
      expect(loadDocument(service).doc).toEqual(parse(readFileSync(documentFile(service), 'utf8')));
    }
  });
});
