import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { killedBy, killedByText } from '../../bench/stryker/confirm.ts';
import { lineMap, occurrences, pinByHand } from '../../bench/stryker/pin-triage.ts';
import {
  applyMutant,
  isHarnessRefusal,
  isPinned,
  judge,
  killEnding,
  movedEntries,
  mutantKey,
  mutatedText,
  type StrykerReport,
  score,
  staleEntries,
  type TriageEntry,
  textAtPin,
  triageProblems,
  type VariantResult,
} from '../../bench/stryker/triage.ts';

const source = ["const a = given === '';", 'function f() {', '  return 1;', '}', "const b = 'x';"].join('\n');
const at = (line: number, column: number, endLine: number, endColumn: number) => ({
  start: { line, column },
  end: { line: endLine, column: endColumn },
});

const report: StrykerReport & { projectRoot: string } = {
  projectRoot: '/w/p',
  files: {
    '/w/p/src/reference/x.ts': {
      source,
      mutants: [
        {
          mutatorName: 'ConditionalExpression',
          replacement: 'true',
          status: 'Survived',
          location: at(1, 11, 1, 23),
        },
        { mutatorName: 'BlockStatement', replacement: '{}', status: 'Survived', location: at(2, 14, 4, 2) },
        { mutatorName: 'StringLiteral', replacement: '""', status: 'Survived', location: at(5, 11, 5, 14) },
        { mutatorName: 'StringLiteral', replacement: '""', status: 'Killed', location: at(1, 21, 1, 23) },
        { mutatorName: 'StringLiteral', replacement: '""', status: 'Timeout', location: at(1, 21, 1, 23) },
        { mutatorName: 'StringLiteral', replacement: '""', status: 'Ignored', location: at(1, 21, 1, 23) },
      ],
    },
  },
};

const triage: TriageEntry[] = [
  {
    file: 'src/reference/x.ts',
    original: "given === ''",
    replacement: 'true',
    verdict: 'equivalent',
    why: 'w',
    spec: 's',
    line: 1,
    column: 11,
    mutator: 'ConditionalExpression',
  },
  {
    file: 'src/reference/x.ts',
    original: '{ ...',
    replacement: '{}',
    verdict: 'blind-spot',
    why: 'w',
    line: 2,
    column: 14,
  },
  { file: 'src/reference/x.ts', original: 'gone', replacement: '""', verdict: 'unobservable', why: 'w' },
  { file: 'src/reference/y.ts', original: 'gone', replacement: '""', verdict: 'unobservable', why: 'w' },
];

describe('mutation triage', () => {
  it('reads the mutated text of one line and of several', () => {
    expect(mutatedText(source, at(1, 11, 1, 23))).toBe("given === ''");
    expect(mutatedText(source, at(2, 14, 4, 2))).toBe('{\n  return 1;\n}');
  });

  it('matches survivors by file, text and replacement, a long span by its first line', () => {
    const j = judge(report, triage);
    expect(j.survivors.map((s) => [s.file, s.line, s.triage?.verdict])).toEqual([
      ['src/reference/x.ts', 1, 'equivalent'],
      ['src/reference/x.ts', 2, 'blind-spot'],
      ['src/reference/x.ts', 5, undefined],
    ]);
    expect([j.killed, j.timedOut, j.ignored]).toEqual([1, 1, 1]);
  });

  it('a pinned entry excuses only the survivor at its line and column, of its mutator; an unpinned or ambiguous one nothing', () => {
    const twice = {
      ...report,
      files: {
        '/w/p/src/reference/x.ts': {
          source: "const a = 'x';\nconst b = 'x';",
          mutants: [
            {
              mutatorName: 'StringLiteral',
              replacement: '""',
              status: 'Survived' as const,
              location: at(1, 11, 1, 14),
            },
            {
              mutatorName: 'StringLiteral',
              replacement: '""',
              status: 'Survived' as const,
              location: at(2, 11, 2, 14),
            },
          ],
        },
      },
    };
    const base = { file: 'src/reference/x.ts', original: "'x'", replacement: '""' } as const;
    const entries: TriageEntry[] = [
      { ...base, verdict: 'unobservable', why: 'unpinned' },
      { ...base, verdict: 'unobservable', why: 'ambiguous', line: 1, column: 11, ambiguous: true },
      { ...base, verdict: 'not-the-api', why: 'line 2', line: 2, column: 11, mutator: 'StringLiteral' },
    ];
    expect(judge(twice, entries).survivors.map((s) => [s.line, s.triage?.why])).toEqual([
      [1, undefined],
      [2, 'line 2'],
    ]);
    // The same place but another mutator: not the mutant the entry was written for.
    const other = [
      { ...base, verdict: 'unobservable' as const, why: 'w', line: 2, column: 11, mutator: 'Regex' },
    ];
    expect(judge(twice, other).survivors.map((s) => s.triage)).toEqual([undefined, undefined]);
    // The same line, another column: nothing.
    const shifted = [{ ...base, verdict: 'unobservable' as const, why: 'w', line: 2, column: 12 }];
    expect(judge(twice, shifted).survivors.map((s) => s.triage)).toEqual([undefined, undefined]);
    expect(triageProblems([{ ...entries[2], line: 0 }])).toEqual(['entry 1: line is not a line number']);
    expect(triageProblems([{ ...entries[2], column: -1 }])).toEqual([
      'entry 1: column is not a column number',
    ]);
  });

  it('an entry whose text is no longer at its place is stale, also for a long span cut with ...', () => {
    const entries: TriageEntry[] = [
      {
        file: 'a.ts',
        original: "'x'",
        replacement: '""',
        verdict: 'unobservable',
        why: 'w',
        line: 2,
        column: 11,
      },
      {
        file: 'a.ts',
        original: '{ return...',
        replacement: '{}',
        verdict: 'unobservable',
        why: 'w',
        line: 3,
        column: 14,
      },
      {
        file: 'a.ts',
        original: "'y'",
        replacement: '""',
        verdict: 'unobservable',
        why: 'w',
        line: 1,
        column: 11,
      },
      {
        file: 'b.ts',
        original: "'y'",
        replacement: '""',
        verdict: 'unobservable',
        why: 'w',
        line: 1,
        column: 1,
      },
    ];
    const sources = new Map([['a.ts', "const a = 'x';\nconst b = 'x';\nfunction f() {\n  return 1;\n}"]]);
    expect(textAtPin(sources.get('a.ts') ?? '', entries[0] as TriageEntry)).toBe(true);
    expect(movedEntries(entries, sources).map((t) => t.original)).toEqual(["'y'"]);
  });

  it('scores the raw figure over all mutants; a timeout is never a kill; excused counts by verdict', () => {
    const s = score([judge(report, triage)]);
    expect(s).toMatchObject({ killed: 1, timedOut: 1, judged: 5, equivalent: 1, open: 1, untriaged: 1 });
    expect(s.excused).toEqual({ equivalent: 1 });
    expect(s.raw).toBeCloseTo(1 / 5);
    // killed / (killed + timeouts + blind spots + not triaged)
    expect(s.nonEquivalent).toBeCloseTo(1 / 4);
    // A kill that did not reproduce is taken off the kills and stays in both denominators.
    const j = judge(report, triage);
    const again = score([{ ...j, killed: j.killed - 1, unconfirmed: 1 }]);
    expect(again).toMatchObject({ killed: 0, judged: 5 });
    expect(again.nonEquivalent).toBe(0);
  });

  it('names entries of the judged files that match no survivor any more, not entries of other files', () => {
    const stale = staleEntries([judge(report, triage)], triage, ['src/reference/x.ts']);
    expect(stale.map((t) => t.original)).toEqual(['gone']);
  });

  it('refuses an entry without its fields, an unknown verdict, an equivalent without the spec line', () => {
    expect(triageProblems(triage)).toEqual([]);
    expect(triageProblems({})).toEqual(['the triage is not a list']);
    expect(
      triageProblems([
        { file: 'f', original: 'o', replacement: 'r', verdict: 'equivalent', why: 'w' },
        { file: 'f', original: 'o', replacement: 'r', verdict: 'maybe', why: 'w' },
        { file: 'f', replacement: 'r', verdict: 'unobservable', why: 'w' },
      ]),
    ).toEqual([
      "entry 1: an equivalent mutant quotes the spec's line",
      'entry 2: unknown verdict maybe',
      'entry 3: original missing',
    ]);
  });
});

describe('the variant pass', () => {
  const file = 'src/reference/x.ts';
  const withVariants: TriageEntry[] = [
    { ...(triage[0] as TriageEntry), verdict: 'not-the-api', variant: 'other-choices:a=b' },
    {
      file,
      original: "'x'",
      replacement: '""',
      verdict: 'equivalent',
      why: 'w',
      spec: 's',
      variant: 'v2',
      line: 5,
      column: 11,
    },
  ];
  const keyOf = (line: number, column: number, endLine: number, endColumn: number, replacement: string) =>
    mutantKey({ file, location: at(line, column, endLine, endColumn), replacement });
  const result = (key: string, killed: boolean): VariantResult => ({
    key,
    variant: 'v',
    killed,
    detail: 'd',
  });

  it('applies a mutant where mutatedText reads it, over one line and several', () => {
    expect(applyMutant(source, at(1, 11, 1, 23), 'true').split('\n')[0]).toBe('const a = true;');
    const block = applyMutant(source, at(2, 14, 4, 2), '{}');
    expect(block).toBe(["const a = given === '';", 'function f() {}', "const b = 'x';"].join('\n'));
  });

  it('counts a survivor its variant killed as killed, and keeps its entry in use', () => {
    const j = judge(report, withVariants, new Map([[keyOf(1, 11, 1, 23, 'true'), result('k', true)]]));
    expect(j.killedUnderVariant.map((s) => s.line)).toEqual([1]);
    expect(j.survivors.map((s) => s.line)).toEqual([2, 5]);
    expect(score([j])).toMatchObject({ killed: 2, timedOut: 1, judged: 5 });
    expect(staleEntries([j], withVariants, [file])).toEqual([]);
  });

  it('a survivor of its variant keeps an equivalent verdict; not-the-api no longer holds: untriaged', () => {
    const j = judge(
      report,
      withVariants,
      new Map([
        [keyOf(1, 11, 1, 23, 'true'), result('k', false)],
        [keyOf(5, 11, 5, 14, '""'), result('k', false)],
      ]),
    );
    const [first, , last] = j.survivors;
    expect(first?.triage).toBeUndefined();
    expect(first?.entry?.verdict).toBe('not-the-api');
    expect(last?.triage?.verdict).toBe('equivalent');
    expect(last?.underVariant?.killed).toBe(false);
  });

  it('a variant run stopped at its bound is a timeout, apart: neither killed nor a survivor', () => {
    const j = judge(
      report,
      withVariants,
      new Map([[keyOf(1, 11, 1, 23, 'true'), { ...result('k', false), timedOut: true }]]),
    );
    expect(j.killedUnderVariant).toEqual([]);
    expect(j.survivors.map((s) => s.line)).toEqual([2, 5]);
    expect(score([j])).toMatchObject({ killed: 1, timedOut: 2, judged: 5 });
  });

  it('with no result for its variant, a verdict stands as written', () => {
    const j = judge(report, withVariants);
    expect(j.survivors[0]?.triage?.verdict).toBe('not-the-api');
    expect(j.killedUnderVariant).toEqual([]);
  });

  it('refuses a variant that is not a name', () => {
    expect(
      triageProblems([
        { file: 'f', original: 'o', replacement: 'r', verdict: 'unobservable', why: 'w', variant: 3 },
      ]),
    ).toEqual(['entry 1: variant is not a name']);
  });
});

describe('kills', () => {
  it('tells a kill by failed checks from a run that ended otherwise, and the harness refusing itself', () => {
    expect(killEnding('... 3 checks failed\nexit code 1 (a check failed)\n')).toBeUndefined();
    expect(killEnding(undefined)).toBeUndefined();
    const refusal = killEnding(
      'conformance: another conformance run (process 18931, started 2026-11-26T09:20:36.650Z) is writing to /x/reports\n',
    );
    expect(refusal).toMatch(/^conformance: another conformance run \(process N/);
    expect(isHarnessRefusal(refusal ?? '')).toBe(true);
    expect(isHarnessRefusal(killEnding('conformance: the setup never settled\nexit code 2\n') ?? '')).toBe(
      false,
    );
  });

  it('counts kills that ended otherwise by their ending', () => {
    const one = {
      files: {
        'a.ts': {
          source: 'x',
          mutants: [
            {
              mutatorName: 'M',
              status: 'Killed',
              statusReason: 'boom\nexit code 2',
              location: at(1, 1, 1, 2),
            },
            {
              mutatorName: 'M',
              status: 'Killed',
              statusReason: 'exit code 1 (a check failed)',
              location: at(1, 1, 1, 2),
            },
          ],
        },
      },
    };
    expect(judge(one, []).killedOtherwise).toEqual({ 'exit code N': 1 });
  });
});

describe('pinning the triage (bench/stryker/pin-triage.ts)', () => {
  it('finds every place of a text, whitespace runs matching line breaks, a cut span by its start', () => {
    const src = "const a = 'x';\nif (a) {\n  reset();\n}\nconst b = 'x';";
    expect(occurrences(src, "'x'")).toEqual([
      { line: 1, column: 11 },
      { line: 5, column: 11 },
    ]);
    expect(occurrences(src, '{ reset();...')).toEqual([{ line: 2, column: 8 }]);
    expect(occurrences(src, 'gone')).toEqual([]);
  });
});

describe('killedBy: what a confirmed kill failed', () => {
  it('reads the failed checks, the count left unlisted and the last line', () => {
    const out = [
      'area  passed  failed',
      'failed GNR-ALIVE-NEXT-LINK [GNR-01]: nothing answered after the x-next page',
      '  reproduce with: curl ...',
      'failed KEY-PINNED-OWN-listCustomers [KEY-03]: refused from its own address',
      '... and 3 more in the reports',
      'Not conformant: 5 checks failed (exit code 1)',
      '',
    ].join('\n');
    const k = killedBy(1, out);
    expect(k.checks).toEqual(['GNR-ALIVE-NEXT-LINK', 'KEY-PINNED-OWN-listCustomers']);
    expect(k.more).toBe(3);
    expect(k.last).toBe('Not conformant: 5 checks failed (exit code 1)');
    expect(killedByText(k)).toBe(
      'exit 1, failed GNR-ALIVE-NEXT-LINK, KEY-PINNED-OWN-listCustomers and 3 more',
    );
  });

  it('names the last line when no check is listed (a run that stopped)', () => {
    const k = killedBy(2, 'the embedded server did not start\n');
    expect(k.checks).toEqual([]);
    expect(killedByText(k)).toBe('exit 2, no failed check listed: the embedded server did not start');
  });
});

describe('lineMap: a pin follows its unchanged line through a diff', () => {
  // old: line 1 .. line 10; new: two lines inserted after 3, line 7 removed, line 9 changed.
  const diff = [
    '@@ -3,0 +4,2 @@ line 3',
    '+x',
    '+y',
    '@@ -7 +8,0 @@ line 6',
    '-line 7',
    '@@ -9 +10 @@ line 8',
    '-line 9',
    '+changed9',
  ].join('\n');
  const at = lineMap(diff);
  it('maps lines before, between and after the hunks', () => {
    expect([1, 3, 4, 6, 8, 10].map(at)).toEqual([1, 3, 6, 8, 9, 11]);
  });
  it('leaves removed and changed lines unmapped (the entry stays stale)', () => {
    expect(at(7)).toBeUndefined();
    expect(at(9)).toBeUndefined();
  });
});

describe('pinByHand: a person pins an ambiguous entry to each place its reason holds', () => {
  const entry = [
    '- file: src/reference/server.ts',
    '  original: "\'/\'"',
    '  replacement: "\\"\\""',
    '  verdict: unobservable',
    '  why: a reason',
    '  ambiguous: true',
    '',
  ].join('\n');
  // Where server.ts holds the text '/' (any two of its places).
  const places = occurrences(readFileSync('src/reference/server.ts', 'utf8'), "'/'").slice(0, 2);

  it('writes one pinned copy per place, without the ambiguous mark', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pin-'));
    writeFileSync(join(dir, 'server.yaml'), entry);
    pinByHand([`server.yaml:0=${places.map((p) => `${p.line}:${p.column}`).join(',')}`], dir, true);
    const pinned = parse(readFileSync(join(dir, 'server.yaml'), 'utf8')) as TriageEntry[];
    expect(places).toHaveLength(2);
    expect(pinned.map((t) => [t.line, t.column, t.ambiguous])).toEqual(
      places.map((p) => [p.line, p.column, undefined]),
    );
    expect(pinned.every((t) => isPinned(t) && t.why === 'a reason')).toBe(true);
  });

  it('refuses a place that does not hold the text, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pin-'));
    writeFileSync(join(dir, 'server.yaml'), entry);
    expect(() => pinByHand(['server.yaml:0=1:1'], dir, true)).toThrow(
      /is not at src\/reference\/server.ts:1:1/,
    );
    expect(readFileSync(join(dir, 'server.yaml'), 'utf8')).toBe(entry);
  });
});
