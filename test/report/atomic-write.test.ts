// Reports are written atomically: a reader polling the file while it is written sees the old text
// or the new, never a part. The same reader against a plain write sees a part, which shows the
// probe can tell the two apart.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  removeTemporaryFiles,
  reserveTemporaryPath,
  writeFileAtomic,
} from '../../src/report/atomic-write.ts';

const dir = mkdtempSync(join(tmpdir(), 'atomic-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = `${'o'.repeat(1024)}\n`;
// Several of Node's 512 KiB write chunks, so a plain write is visible half-done between them.
const NEW = `${'n'.repeat(8 * 1024 * 1024)}\n`;

/** Reads the file on every turn of the event loop while `write` runs; returns the lengths seen. */
async function readWhileWriting(path: string, write: () => Promise<void>): Promise<Set<number>> {
  writeFileSync(path, OLD);
  const seen = new Set<number>();
  let done = false;
  const writing = write().finally(() => {
    done = true;
  });
  while (!done) {
    seen.add(readFileSync(path, 'utf8').length);
    await new Promise((r) => setImmediate(r));
  }
  await writing;
  seen.add(readFileSync(path, 'utf8').length);
  return seen;
}

describe('writeFileAtomic', () => {
  it('a reader sees the old text or the new one, never a part', async () => {
    const path = join(dir, 'results.json');
    const seen = await readWhileWriting(path, () => writeFileAtomic(path, NEW));
    expect(
      [...seen].every((n) => n === OLD.length || n === NEW.length),
      [...seen].join(','),
    ).toBe(true);
    expect(seen.has(NEW.length)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('(control) the same reader catches a plain write half-done', async () => {
    const path = join(dir, 'plain.json');
    const seen = await readWhileWriting(path, () => writeFile(path, NEW));
    expect(
      [...seen].some((n) => n !== OLD.length && n !== NEW.length),
      [...seen].join(','),
    ).toBe(true);
  });

  it('a write that fails leaves neither a temporary file nor a changed report', async () => {
    const path = join(dir, 'kept.md');
    writeFileSync(path, OLD);
    // A folder where the temporary file's name would go makes the write fail after the reservation.
    await expect(writeFileAtomic(join(dir, 'missing-folder', 'x.md'), NEW)).rejects.toThrow(/ENOENT/);
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a forced exit removes the temporary files still being written', () => {
    const temporary = reserveTemporaryPath(join(dir, 'index.html'));
    writeFileSync(temporary, 'half');
    expect(temporary).toMatch(/\/\.index\.html\.\d+\.\d+\.tmp$/);
    removeTemporaryFiles();
    expect(readdirSync(dir)).not.toContain(temporary.split('/').pop());
  });
});
